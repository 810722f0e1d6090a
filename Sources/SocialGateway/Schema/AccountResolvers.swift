import Foundation
import GraphQLEngine
import SocialDomain

/// `Query.account` and the account mutations (issue 20): thin calls into the use cases. Their
/// answers are never cached (`maxAge: 0`, mutations never are), and no password or token is
/// ever logged: arguments are not logged anywhere in the gateway.
enum AccountResolvers {
    static func bind(_ b: inout SchemaBinder) {
        b.bind("Query", "account") { info in
            let request = try info.request
            guard request.viewer.userId != nil else { return nil }
            return try await storeCall(request.logger) { try await GetAccount(accounts: request.stores.accounts).execute(viewer: request.viewer) }
        }
        b.bind("Mutation", "signUp") { info in
            let request = try info.request
            try request.budget.spendPasswordHash(field: "signUp")
            let result = try await storeCall(request.logger) {
                try await SignUp(accounts: request.stores.accounts, limits: request.accountLimits).execute(
                    email: info.arguments.string("email") ?? "", password: info.arguments.string("password") ?? "",
                    handle: info.arguments.string("handle") ?? "", homeZIP: info.arguments.string("homeZIP"),
                    clientAddress: request.clientAddress)
            }
            request.changedTags.record([CacheTags.search, CacheTags.profile(result.userId)])
            return result
        }
        b.bind("Mutation", "signIn") { info in
            let request = try info.request
            try request.budget.spendPasswordHash(field: "signIn")
            return try await storeCall(request.logger) {
                try await SignIn(accounts: request.stores.accounts, limits: request.accountLimits).execute(
                    email: info.arguments.string("email") ?? "", password: info.arguments.string("password") ?? "",
                    clientAddress: request.clientAddress)
            }
        }
        b.bind("Mutation", "refreshSession") { info in
            let request = try info.request
            return try await storeCall(request.logger) {
                try await RefreshSession(accounts: request.stores.accounts).execute(refreshToken: info.arguments.string("refreshToken") ?? "")
            }
        }
        b.bind("Mutation", "signOut") { info in
            let request = try info.request
            try await storeCall(request.logger) {
                try await SignOut(accounts: request.stores.accounts, sessions: request.endedSessions).execute(viewer: request.viewer)
            }
            return true
        }
        b.bind("Mutation", "requestPasswordReset") { info in
            let request = try info.request
            try await storeCall(request.logger) {
                try await RequestPasswordReset(accounts: request.stores.accounts, limits: request.accountLimits).execute(
                    email: info.arguments.string("email") ?? "", clientAddress: request.clientAddress)
            }
            return true
        }
        b.bind("Mutation", "resetPassword") { info in
            let request = try info.request
            try request.budget.spendPasswordHash(field: "resetPassword")
            return try await storeCall(request.logger) {
                try await ResetPassword(accounts: request.stores.accounts, limits: request.accountLimits, sessions: request.endedSessions).execute(
                    token: info.arguments.string("token") ?? "", newPassword: info.arguments.string("newPassword") ?? "",
                    clientAddress: request.clientAddress)
            }
        }
        b.bind("Mutation", "updateSettings") { info in
            let request = try info.request
            let input = info.arguments["input"]?.objectValue ?? [:]
            var changes = AccountSettingsChanges()
            if let quality = input["videoQuality"]?.stringValue { changes.videoQuality = VideoQuality(rawValue: quality.lowercased()) }
            if input["autoplay"] == .null || input["videoQuality"] == .null {
                throw DomainError.badUserInput("Settings cannot be cleared", field: input["autoplay"] == .null ? "autoplay" : "videoQuality")
            }
            changes.autoplay = input["autoplay"]?.boolValue
            return try await storeCall(request.logger) {
                try await UpdateSettings(accounts: request.stores.accounts).execute(changes, viewer: request.viewer)
            }
        }
        b.bind("Mutation", "changePassword") { info in
            let request = try info.request
            try request.budget.spendPasswordHash(field: "changePassword")
            return try await storeCall(request.logger) {
                try await ChangePassword(accounts: request.stores.accounts, limits: request.accountLimits, sessions: request.endedSessions).execute(
                    current: info.arguments.string("currentPassword") ?? "", new: info.arguments.string("newPassword") ?? "",
                    confirm: info.arguments.string("confirmPassword") ?? "", viewer: request.viewer)
            }
        }
        b.bindSync("AuthPayload", "session") { try $0.parent(as: AuthResult.self).session }
        b.bind("AuthPayload", "account") { info in
            let request = try info.request
            let result = try info.parent(as: AuthResult.self)
            guard let session = result.session else { return nil }
            let viewer = Viewer.user(id: result.userId, token: session.accessToken)
            return try await storeCall(request.logger) { try await GetAccount(accounts: request.stores.accounts).execute(viewer: viewer) }
        }
        b.bindSync("Session", "accessToken") { try $0.parent(as: AuthSession.self).accessToken }
        b.bindSync("Session", "tokenType") { _ in "bearer" }
        b.bindSync("Session", "expiresAt") { try $0.parent(as: AuthSession.self).expiresAt }
        b.bindSync("Session", "refreshToken") { try $0.parent(as: AuthSession.self).refreshToken }
        func account(_ field: String, _ get: @escaping @Sendable (Account) -> (any Sendable)?) {
            b.bindSync("Account", field) { info in get(try info.parent(as: Account.self)) }
        }
        account("id") { $0.id.lowercased }
        account("email") { $0.email }
        account("displayName") { $0.displayName }
        account("accountCreatedAt") { $0.createdAt }
        account("isVerified") { $0.isVerified }
        account("lastLoginAt") { $0.lastLoginAt }
        account("settings") { $0.settings }
        b.bind("Account", "profile") { info in
            let request = try info.request
            let account = try info.parent(as: Account.self)
            return request.read(try await request.profilesByID.load(account.id))
        }
        b.bindSync("AccountSettings", "videoQuality") { try $0.parent(as: AccountSettings.self).videoQuality.rawValue.uppercased() }
        b.bindSync("AccountSettings", "autoplay") { try $0.parent(as: AccountSettings.self).autoplay }
    }
}
