"""RFC 3161 timestamps of checkpoints, against `openssl ts` as a local Time-Stamp Authority,
and checked with `openssl ts -verify` (a tool the project did not write)."""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardian.audit.timestamps import TimestampError, response_status, timestamp_query
from guardian.cli import app

pytestmark = pytest.mark.integration  # openssl processes

TSA_CNF = """[ req ]
distinguished_name = dn
prompt = no
[ dn ]
CN = test TSA
[ tsa_ext ]
basicConstraints = critical,CA:false
keyUsage = critical,digitalSignature
extendedKeyUsage = critical,timeStamping
[ tsa ]
default_tsa = tsa_config
[ tsa_config ]
serial = {dir}/serial
signer_digest = sha256
default_policy = 1.2.3.4.1
digests = sha256
accuracy = secs:1
ess_cert_id_alg = sha256
ess_cert_id_chain = no
"""


@pytest.fixture
def tsa(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """(URL, TSA certificate): `openssl ts -reply` behind a small HTTP server."""
    if shutil.which("openssl") is None:
        pytest.skip("no openssl to act as the Time-Stamp Authority")
    d = tmp_path / "tsa"
    d.mkdir()
    (d / "tsa.cnf").write_text(TSA_CNF.format(dir=d))
    (d / "serial").write_text("01\n")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:P-256", "-nodes", "-keyout", d / "key.pem", "-out",
                    d / "cert.pem", "-days", "2", "-config", d / "tsa.cnf", "-extensions",
                    "tsa_ext"], check=True, capture_output=True)
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            with lock:
                (d / "q.tsq").write_bytes(body)
                subprocess.run(["openssl", "ts", "-reply", "-queryfile", d / "q.tsq", "-config",
                                d / "tsa.cnf", "-inkey", d / "key.pem", "-signer",
                                d / "cert.pem", "-out", d / "r.tsr"], check=True,
                               capture_output=True)
                answer = (d / "r.tsr").read_bytes()
            self.send_response(200)
            self.send_header("Content-Type", "application/timestamp-reply")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/", d / "cert.pem"
    finally:
        server.shutdown()


def test_checkpoints_are_timestamped_and_openssl_verifies(home: tuple[Path, str],
                                                         tsa: tuple[str, Path]) -> None:
    home_dir, _ = home
    url, cert = tsa
    res = CliRunner().invoke(app, ["audit", "timestamp", "--tsa", url])
    assert res.exit_code == 0, res.output
    (tsr,) = home_dir.glob("audit-heads/*/timestamps/*.tsr")
    data = tsr.with_suffix(".checkpoint")
    assert data.read_text() == (tsr.parent.parent / "checkpoint").read_text()
    ok = subprocess.run(["openssl", "ts", "-verify", "-data", data, "-in", tsr, "-CAfile", cert],
                        capture_output=True, text=True)
    assert ok.returncode == 0 and "Verification: OK" in ok.stdout, ok.stdout + ok.stderr
    forged = data.with_name("forged")
    forged.write_text(data.read_text().replace("\n3", "\n4", 1))  # another tree size
    bad = subprocess.run(["openssl", "ts", "-verify", "-data", forged, "-in", tsr, "-CAfile",
                          cert], capture_output=True, text=True)
    assert bad.returncode != 0 and "Verification: FAILED" in bad.stdout


def test_the_request_is_der_openssl_reads_and_a_refusal_is_an_error() -> None:
    if shutil.which("openssl") is None:
        pytest.skip("no openssl")
    q = subprocess.run(["openssl", "ts", "-query", "-in", "/dev/stdin", "-text"],
                       input=timestamp_query(b"x", 7), capture_output=True)
    assert q.returncode == 0 and b"Hash Algorithm: sha256" in q.stdout
    assert b"Nonce: 0x07" in q.stdout
    assert response_status(bytes.fromhex("30053003020102")) == 2  # {{status rejection}}
    with pytest.raises(TimestampError):
        response_status(b"\x04\x00")
