import ArgumentParser

/// `social-gateway graphql ...`: tools for `.graphql` files.
struct GraphQLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graphql",
        abstract: "Check, print, validate and execute GraphQL documents.",
        subcommands: [ParseCommand.self, ValidateCommand.self, ExecuteCommand.self]
    )
}
