import Foundation
import FuzzSupport
import GatewayServer

/// The GraphQL-over-HTTP request readers on any bytes, with the server's limits: a JSON body
/// (single or batch) and a GET query string each give parameters or a `GatewayHTTPError`
/// with a 4xx status, never a trap.
func fuzzRequest(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = bytes.map(UnsafeRawPointer.init) else { return 0 }
    let bytes = Fuzz.bytes(data, count)
    do {
        _ = try GraphQLHTTPRequest.decodeJSON(bytes, maxBatchSize: 20, maxJSONValues: 10_000)
    } catch {
        if !(400..<500).contains(error.status.code) { Fuzz.fail("JSON body: \(error)", input: String(decoding: bytes, as: UTF8.self)) }
    }
    let text = String(decoding: bytes, as: UTF8.self)
    do {
        _ = try GraphQLHTTPRequest.decodeQueryString(text, maxJSONValues: 10_000)
    } catch {
        if !(400..<500).contains(error.status.code) { Fuzz.fail("query string: \(error)", input: text) }
    }
    return 0
}

Fuzz.run(fuzzRequest)
