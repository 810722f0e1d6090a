import GatewayAssembly
import GatewayServer
import SocialDomain
import Testing

/// The server's and the composition root's boolean variables read the same spellings and refuse
/// anything else with the same error (one parser, issue 55).
@Suite("Boolean settings")
struct BooleanSettingTests {
    @Test("CACHE and SEED_DEMO_DATA take 1/true/yes/on and 0/false/no/off in any case")
    func spellings() throws {
        for (text, expected) in [("1", true), ("TRUE", true), ("yes", true), ("On", true),
                                 ("0", false), ("False", false), ("no", false), ("OFF", false)] {
            #expect(try ServerConfiguration.fromEnvironment(["CACHE": text]).responseCache == expected)
            #expect(try GatewaySettings.fromEnvironment(["SEED_DEMO_DATA": text]).store.seedDemoData == expected)
        }
    }

    @Test("anything else is refused with a ConfigurationError naming the variable and the value")
    func refused() {
        #expect(throws: ConfigurationError("CACHE must be true or false, got \"maybe\"")) {
            try ServerConfiguration.fromEnvironment(["CACHE": "Maybe"])
        }
        #expect(throws: ConfigurationError("SEED_DEMO_DATA must be true or false, got \"maybe\"")) {
            try GatewaySettings.fromEnvironment(["SEED_DEMO_DATA": "Maybe"])
        }
    }
}
