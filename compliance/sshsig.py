"""Sign and verify a pack's manifest in the OpenSSH signature format, with ssh-keygen.

``build --sign KEY`` runs ``ssh-keygen -Y sign -f KEY -n compliance-pack`` over the
bytes of ``manifest.json``; the armored signature goes into the pack as
``manifest.json.sig``. Anyone checks it with stock OpenSSH::

    unzip -p evidence-pack.zip manifest.json |
      ssh-keygen -Y verify -f allowed_signers -I alice@example.com -n compliance-pack \\
        -s manifest.json.sig

We call the system's ``ssh-keygen`` (no shell, stdin/stdout) rather than implement
SSHSIG ourselves: the signature must be exactly what OpenSSH verifies, and
ssh-keygen is that reference; it reads every key OpenSSH reads (passphrases,
ssh-agent, FIDO keys) and adds no Python dependency. Ed25519 and RSA signatures
are deterministic, so a signed build stays byte-reproducible.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from compliance.diagnostics import UserError
from compliance.render.pack import SIGNATURE_NAME

NAMESPACE = "compliance-pack"
TIMEOUT_SECONDS = 60
#: An armored SSH signature is a few hundred bytes; anything far larger is not one.
MAX_SIGNATURE_BYTES = 64 * 1024


def ssh_keygen(why: str) -> str:
    found = shutil.which("ssh-keygen")
    if found is None:
        raise UserError(f"{why} needs ssh-keygen (OpenSSH 8.2 or newer), which is not "
                        "installed here; install openssh-client")
    return found


def _run(args: list[str], data: bytes) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(args, input=data, capture_output=True, timeout=TIMEOUT_SECONDS,
                              check=False)
    except subprocess.TimeoutExpired:
        raise UserError(f"ssh-keygen did not finish within {TIMEOUT_SECONDS} s (waiting for a "
                        "passphrase? use a key in ssh-agent)") from None


def _said(result: subprocess.CompletedProcess[bytes]) -> str:
    text = (result.stderr or b"").decode("utf-8", "replace").strip()
    lines = [line for line in text.splitlines() if not line.startswith("Signing data on")]
    return "; ".join(lines) or f"ssh-keygen exited {result.returncode}"


def sign(data: bytes, key: Path) -> bytes:
    """The armored OpenSSH signature of ``data`` with ``key`` (namespace compliance-pack)."""
    tool = ssh_keygen("--sign")
    result = _run([tool, "-Y", "sign", "-f", str(key), "-n", NAMESPACE], data)
    if result.returncode != 0 or not result.stdout.startswith(b"-----BEGIN SSH SIGNATURE-----"):
        raise UserError(f"cannot sign with {key}: ssh-keygen says: {_said(result)}; give an "
                        "SSH private key (or its .pub, with the key loaded in ssh-agent)")
    return result.stdout


@dataclass(frozen=True)
class SignatureCheck:
    ok: bool
    message: str


def verify(data: bytes, signature: bytes, allowed_signers: Path) -> SignatureCheck:
    """Check ``signature`` over ``data`` against an allowed-signers file (OpenSSH format)."""
    tool = ssh_keygen("--allowed-signers")
    if len(signature) > MAX_SIGNATURE_BYTES or not signature.startswith(
            b"-----BEGIN SSH SIGNATURE-----"):
        return SignatureCheck(False, f"{SIGNATURE_NAME} is not an armored SSH signature")
    with tempfile.TemporaryDirectory(prefix="compliance-verify-") as tmp:
        sig = Path(tmp) / SIGNATURE_NAME
        sig.write_bytes(signature)
        found = _run([tool, "-Y", "find-principals", "-s", str(sig), "-f",
                      str(allowed_signers)], b"")
        principals = found.stdout.decode("utf-8", "replace").split()
        if found.returncode != 0 or not principals:
            return SignatureCheck(False, f"no signer in {allowed_signers} has the key that "
                                  f"made {SIGNATURE_NAME} ({_said(found)})")
        for principal in principals:
            checked = _run([tool, "-Y", "verify", "-f", str(allowed_signers), "-I", principal,
                            "-n", NAMESPACE, "-s", str(sig)], data)
            if checked.returncode == 0:
                said = checked.stdout.decode("utf-8", "replace").strip()
                return SignatureCheck(True, said or f"good signature by {principal}")
        return SignatureCheck(False, f"the signature does not match manifest.json for "
                              f"{', '.join(principals)} ({_said(checked)})")
