import ArgumentParser

/// The `social-gateway` command line.
@main
struct SocialGatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "social-gateway",
        abstract: "A GraphQL gateway over a social domain.",
        subcommands: [GraphQLCommand.self, ServeCommand.self, TokenCommand.self, SeedPostgresCommand.self]
    )
}
