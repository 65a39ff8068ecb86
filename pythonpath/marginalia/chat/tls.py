"""The verifying TLS context, with a list of trusted certificates even where Python has none.

LibreOffice on macOS brings its own Python, whose OpenSSL looks for trusted
certificates in a folder inside the application that holds none (python.org
builds ship an "Install Certificates" script for the same reason). Every
https server then fails with "certificate verify failed" while local http
servers work. So when the default context comes up with no CA certificates,
the system's own bundle is loaded from the places operating systems keep
it. Verification itself is never relaxed. Windows needs none of this:
``load_default_certs`` reads its system store.
"""

import logging
import os
import ssl
import threading
from typing import Callable, NamedTuple, Optional, Sequence

log = logging.getLogger("marginalia.http")

# Where systems keep their PEM bundle of trusted certificates.
BUNDLE_PATHS = (
    "/etc/ssl/cert.pem",                                   # macOS, Alpine, Arch, OpenBSD
    "/etc/ssl/certs/ca-certificates.crt",                  # Debian, Ubuntu, Gentoo
    "/etc/pki/tls/certs/ca-bundle.crt",                    # Fedora, RHEL
    "/etc/ssl/ca-bundle.pem",                              # openSUSE
    "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",   # RHEL, CentOS
)


class TlsSetup(NamedTuple):
    """The context to connect with, and where its trusted certificates came from."""
    context: ssl.SSLContext
    source: str           # "default", a bundle's path, or "" when there is none at all

    @property
    def no_ca_list(self) -> bool:
        """True when nothing can be verified: no trusted certificate was found anywhere."""
        return not self.source


def default_candidates() -> Sequence[str]:
    """The bundle paths, then this OpenSSL's certificate folder when it exists."""
    folder = ssl.get_default_verify_paths().capath
    return BUNDLE_PATHS + ((folder,) if folder else ())


def verifying_context(factory: Callable[[], ssl.SSLContext] = ssl.create_default_context,
                      candidates: Optional[Sequence[str]] = None) -> TlsSetup:
    """A context from ``factory`` that verifies, with a system bundle when it had no CAs."""
    context = factory()
    # Whatever the factory did, a remote host is always verified.
    context.verify_mode = ssl.CERT_REQUIRED
    context.check_hostname = True
    if context.cert_store_stats()["x509_ca"]:
        return TlsSetup(context, "default")
    for path in default_candidates() if candidates is None else candidates:
        try:
            if os.path.isfile(path):
                context.load_verify_locations(cafile=path)
            elif os.path.isdir(path) and os.listdir(path):
                # A hashed folder is read lazily: cert_store_stats() stays 0.
                context.load_verify_locations(capath=path)
            else:
                continue
        except (OSError, ssl.SSLError) as exc:
            log.info("could not read certificates from %s: %s", path, exc)
            continue
        log.info("Python had no trusted certificates; using %s", path)
        return TlsSetup(context, path)
    log.warning("no trusted certificates found: https servers cannot be verified")
    return TlsSetup(context, "")


_shared: Optional[TlsSetup] = None
_lock = threading.Lock()


def shared_tls() -> TlsSetup:
    """One verifying set-up for the process (loading the CA store is slow)."""
    global _shared
    with _lock:
        if _shared is None:
            _shared = verifying_context()
        return _shared
