import Foundation
import FuzzSupport
import GatewayServer

/// The bearer token check on any `Authorization` value: every token that is not one this
/// server signed is refused with 401 (`unauthenticated`), never trapped on and never accepted.
/// The input is taken as the token after "Bearer ", and also as the whole header value.
let authenticator = Fuzz.wait {
    await JWTAuthenticator(hmacSecret: String(repeating: "fuzz-secret-", count: 4), jwks: nil, audience: "authenticated")
}

func fuzzToken(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = bytes.map(UnsafeRawPointer.init) else { return 0 }
    let text = Fuzz.string(data, count)
    for header in ["Bearer " + text, text] {
        let outcome: Result<Bool, GatewayHTTPError> = Fuzz.wait {
            do throws(GatewayHTTPError) {
                return .success(try await authenticator.viewer(authorization: header).userId != nil)
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(true):
            Fuzz.fail("a token nobody signed was accepted", input: header)
        case .success(false), .failure(.unauthenticated):
            break   // anonymous (no usable header) or refused
        case .failure(let error):
            Fuzz.fail("refused with \(error) instead of 401", input: header)
        }
    }
    return 0
}

Fuzz.run(fuzzToken)
