"""A test certificate authority and server certificates, made with the openssl command."""

import subprocess


def _run(*args):
    subprocess.run(["openssl"] + list(args), check=True, capture_output=True)


def make_ca(folder):
    """(ca.pem, ca.key): a self-signed CA, made now."""
    cert, key = str(folder / "ca.pem"), str(folder / "ca.key")
    _run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-days", "1", "-subj", "/CN=Marginalia Test CA", "-addext",
         "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign",
         "-keyout", key, "-out", cert)
    return cert, key


def make_leaf(folder, name, ca):
    """(cert.pem, key.pem) for ``name``, signed by ``ca`` (a make_ca pair)."""
    cert, key, csr = (str(folder / (name + s)) for s in (".pem", ".key", ".csr"))
    ext = folder / (name + ".ext")
    ext.write_text("subjectAltName=DNS:%s\nbasicConstraints=CA:FALSE\n" % name)
    _run("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-subj", "/CN=" + name, "-keyout", key, "-out", csr)
    _run("x509", "-req", "-in", csr, "-CA", ca[0], "-CAkey", ca[1], "-CAcreateserial",
         "-days", "1", "-extfile", str(ext), "-out", cert)
    return cert, key
