import ArgumentParser

/// The `social-gateway` command line.
@main
struct SocialGatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "social-gateway",
        abstract: "A GraphQL gateway over a social domain.",
        subcommands: [GraphQLCommand.self]
    )
}

/// `social-gateway graphql ...`: tools for `.graphql` files.
struct GraphQLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graphql",
        abstract: "Check, print, validate and execute GraphQL documents.",
        subcommands: [ParseCommand.self]
    )
}
