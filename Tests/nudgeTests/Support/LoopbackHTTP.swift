import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The few socket calls a test server on 127.0.0.1 needs that no program should answer for it: a free port, and
/// whether (and with which status) an HTTP server on a port answers one request. Not a client: the harness's
/// readers speak HTTP through Python (CalDAVServer+Client.swift).
enum LoopbackHTTP {
    /// A TCP port that nothing listens on now: the kernel's pick for a socket bound to port 0, released at once.
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw failure("socket") }
        defer { close(socket) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw failure("bind") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard named == 0 else { throw failure("getsockname") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The status of `METHOD PATH` sent to 127.0.0.1:`port` as HTTP/1.0 (the connection closes after the answer),
    /// or nil when nothing listens there or no status line came within `timeout` seconds.
    static func status(_ method: String, _ path: String, port: Int, agent: String,
                       timeout: TimeInterval = 5) -> Int? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        defer { close(socket) }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return nil }
        let request = "\(method) \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\nUser-Agent: \(agent)\r\n"
            + "Content-Length: 0\r\nConnection: close\r\n\r\n"
        let bytes = Array(request.utf8)
        guard send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { return nil }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {   // to its end: a server that finds its answer cut off logs an error instead of the request
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            answer += buffer.prefix(count)
        }
        let statusLine = String(decoding: answer.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let words = statusLine.split(separator: " ")
        guard words.count >= 2, words[0].hasPrefix("HTTP/") else { return nil }
        return Int(words[1])
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    struct SocketError: Error, CustomStringConvertible {
        let description: String
    }

    private static func failure(_ call: String) -> Error {
        SocketError(description: "\(call) on 127.0.0.1: \(String(cString: strerror(errno)))")
    }
}
