//! Who may flip the health server's pretend database: only a client on this machine.
//!
//! The server binds 127.0.0.1, but a web page open in a browser can still make the browser
//! send a POST there, either directly (the request carries the page's `Origin`) or after
//! DNS rebinding (the `Host` is the attacker's name). So `/admin/database/*` answers only
//! when `Host` is a loopback name or address and `Origin`, if sent, is one as well.

use hyper::HeaderMap;
use hyper::header::{HOST, ORIGIN};

/// Why an admin request was refused, as the 403 body says it.
pub const FOREIGN_HOST: &str = "forbidden: Host must be localhost or a loopback address";
pub const FOREIGN_ORIGIN: &str = "forbidden: Origin must be localhost or a loopback address";

/// `Err(reason)` unless the request's Host, and Origin if any, name this machine.
pub fn check_admin(headers: &HeaderMap) -> Result<(), &'static str> {
    let host = headers.get(HOST).and_then(|value| value.to_str().ok());
    if !host.is_some_and(is_loopback_authority) {
        return Err(FOREIGN_HOST);
    }
    if let Some(origin) = headers.get(ORIGIN) {
        let authority = origin.to_str().ok().and_then(|origin| {
            origin
                .strip_prefix("http://")
                .or_else(|| origin.strip_prefix("https://"))
        });
        // `Origin: null` (a sandboxed page, a file) is as foreign as any other site.
        if !authority.is_some_and(is_loopback_authority) {
            return Err(FOREIGN_ORIGIN);
        }
    }
    Ok(())
}

/// Whether `authority` (`host[:port]`, IPv6 in brackets) names a loopback interface.
pub fn is_loopback_authority(authority: &str) -> bool {
    let host = if let Some(rest) = authority.strip_prefix('[') {
        match rest.split_once(']') {
            Some((host, port)) if port.is_empty() || valid_port(port.strip_prefix(':')) => host,
            _ => return false,
        }
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) if valid_port(Some(port)) => host,
            Some(_) => return false,
            None => authority,
        }
    };
    let host = host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase();
    host == "localhost"
        || host.ends_with(".localhost")
        || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

fn valid_port(port: Option<&str>) -> bool {
    port.is_some_and(|port| port.parse::<u16>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    fn headers(host: Option<&str>, origin: Option<&str>) -> HeaderMap {
        let mut map = HeaderMap::new();
        if let Some(host) = host {
            map.insert(HOST, HeaderValue::from_str(host).unwrap());
        }
        if let Some(origin) = origin {
            map.insert(ORIGIN, HeaderValue::from_str(origin).unwrap());
        }
        map
    }

    #[test]
    fn loopback_names_and_addresses_pass() {
        for host in [
            "127.0.0.1:8080",
            "127.0.0.1",
            "localhost:8080",
            "LOCALHOST",
            "[::1]:8080",
            "[::1]",
            "127.1.2.3",
        ] {
            assert!(is_loopback_authority(host), "{host}");
        }
        assert_eq!(check_admin(&headers(Some("127.0.0.1:8080"), None)), Ok(()));
        assert_eq!(
            check_admin(&headers(Some("localhost:8080"), Some("http://localhost:8080"))),
            Ok(())
        );
    }

    #[test]
    fn foreign_hosts_and_origins_are_refused() {
        for host in [
            "evil.example",
            "evil.example:8080",
            "10.0.0.1:80",
            "127.0.0.1.evil.example",
            "[::2]:80",
            "localhost:x",
            "",
        ] {
            assert!(!is_loopback_authority(host), "{host}");
        }
        assert_eq!(check_admin(&headers(None, None)), Err(FOREIGN_HOST));
        assert_eq!(
            check_admin(&headers(Some("evil.example:8080"), None)),
            Err(FOREIGN_HOST)
        );
        for origin in [
            "http://evil.example",
            "null",
            "https://evil.example:443",
            "ftp://localhost",
        ] {
            assert_eq!(
                check_admin(&headers(Some("127.0.0.1:8080"), Some(origin))),
                Err(FOREIGN_ORIGIN),
                "{origin}"
            );
        }
    }
}
