"""Secrets a Kubernetes pod spec hands its containers (CFG013).

Refuted, each at its own line: a container ``env`` named like a secret, holding a
credential-shaped literal or read from a Secret (``valueFrom.secretKeyRef``); ``envFrom``
of a Secret (every key becomes a variable); a mounted ``secret`` volume, ``projected``
volume with a Secret or a ``serviceAccountToken`` source, Secrets Store CSI volume or
``hostPath`` of a credential folder; ``automountServiceAccountToken: true``.
``automountServiceAccountToken`` unset is not verified: Kubernetes mounts the service
account's token unless the pod or its ServiceAccount (when the file holds it) says false.
``envFrom`` of a ConfigMap is not a Secret: its keys are read when the file holds the
ConfigMap, otherwise the pod is not verified (the variables' names are not in evidence).
"""

from __future__ import annotations

from typing import Any

from compliance.adapters.base import EvidenceDoc, Fact, as_dict, as_list
from compliance.rules.config._secrets import CREDENTIAL_PATHS, is_secret_name, token_in
from compliance.rules.config.verdict import Findings

SA_TOKEN_PATH = "/var/run/secrets/kubernetes.io/serviceaccount"
_SECRETS_CSI = "secrets-store.csi.k8s.io"


def objects_named(doc: EvidenceDoc, kind: str) -> dict[str, tuple[int, dict[str, Any]]]:
    """Objects of one kind in the file by name, with their document index."""
    out: dict[str, tuple[int, dict[str, Any]]] = {}
    for i, obj in enumerate(as_list(doc.data)):
        if isinstance(obj, dict) and obj.get("kind") == kind:
            out[str(as_dict(obj.get("metadata")).get("name", ""))] = (i, obj)
    return out


def judge_pod(doc: EvidenceDoc, pod: Fact, findings: Findings) -> None:
    """Refute what hands a container a secret; support the pod spec only when nothing does."""
    path = tuple(pod.value["path"])
    spec = as_dict(doc.get(*path))
    before = len(findings.reasons), len(findings.gaps)
    notes = [_token(doc, path, spec, findings)]
    mounted: dict[str, list[tuple[tuple[str | int, ...], str, str]]] = {}
    for c_i, container in enumerate(as_list(spec.get("containers"))):
        container = as_dict(container)
        where = (*path, "containers", c_i)
        cname = str(container.get("name", c_i))
        for e_i, env in enumerate(as_list(container.get("env"))):
            _env(doc, (*where, "env", e_i), as_dict(env), cname, findings)
        for f_i, source in enumerate(as_list(container.get("envFrom"))):
            notes.append(_env_from(doc, (*where, "envFrom", f_i), as_dict(source), cname,
                                   findings))
        for m_i, mount in enumerate(as_list(container.get("volumeMounts"))):
            mount = as_dict(mount)
            mounted.setdefault(str(mount.get("name")), []).append(
                ((*where, "volumeMounts", m_i), cname, str(mount.get("mountPath", ""))))
    for volume in as_list(spec.get("volumes")):
        what = _secret_volume(as_dict(volume))
        # a volume no container mounts is read by nothing
        for at, cname, mount_path in mounted.get(str(as_dict(volume).get("name")), []) \
                if what else []:
            findings.refute(doc, at, f"{what} is mounted at {mount_path} in container {cname}")
    if (len(findings.reasons), len(findings.gaps)) == before:
        findings.support(doc, pod, "no container env variable in this pod spec is named "
                                   "like a secret, holds a credential-shaped value or reads a "
                                   "Secret; no Secret, token or credential folder is mounted; "
                                   + "; ".join(n for n in notes if n))


def _env(doc: EvidenceDoc, at: tuple[str | int, ...], env: dict[str, Any], cname: str,
         findings: Findings) -> None:
    name = str(env.get("name", ""))
    ref = as_dict(as_dict(env.get("valueFrom")).get("secretKeyRef"))
    literal = token_in(env.get("value"))
    if ref:
        findings.refute(doc, at, f"container {cname} env {name} is read from Secret "
                                 f"{ref.get('name')!s} (key {ref.get('key')!s})")
    elif literal:
        findings.refute(doc, (*at, "value"), f"container {cname} env {name} holds a "
                                             f"credential-shaped literal ({literal})")
    elif is_secret_name(name):
        findings.refute(doc, at, f"container env {name} holds a secret")


def _env_from(doc: EvidenceDoc, at: tuple[str | int, ...], source: dict[str, Any],
              cname: str, findings: Findings) -> str:
    secret = as_dict(source.get("secretRef"))
    config = as_dict(source.get("configMapRef"))
    if secret:
        findings.refute(doc, (*at, "secretRef"), f"container {cname} envFrom Secret "
                        f"{secret.get('name')!s}: every key of the Secret is an environment "
                        "variable")
        return ""
    if not config:
        return ""
    name = str(config.get("name"))
    found = objects_named(doc, "ConfigMap").get(name)
    if found is None:
        findings.gap(f"container {cname} envFrom ConfigMap {name} ({doc.path}:"
                     f"{doc.line(*at)}): the ConfigMap is not in the evidence, so the names "
                     "and values of the variables it sets are not known (export it, or list "
                     "the variables under env)")
        return ""
    index, obj = found
    for key, value in as_dict(obj.get("data")).items():
        if is_secret_name(str(key)) or token_in(value):
            findings.refute(doc, (index, "data", key), f"ConfigMap {name}, read by container "
                            f"{cname} through envFrom, sets {key}, a secret")
    return f"envFrom ConfigMap {name} sets no variable named like a secret"


def _secret_volume(volume: dict[str, Any]) -> str:
    """What secret a volume holds ("" for none)."""
    name = str(volume.get("name"))
    if "secret" in volume:
        return f"Secret {as_dict(volume['secret']).get('secretName')!s} (volume {name})"
    for source in as_list(as_dict(volume.get("projected")).get("sources")):
        source = as_dict(source)
        if "secret" in source:
            return f"Secret {as_dict(source['secret']).get('name')!s} (projected volume {name})"
        if "serviceAccountToken" in source:
            return f"a service account token (projected volume {name})"
    csi = as_dict(volume.get("csi"))
    if csi.get("driver") == _SECRETS_CSI:
        return f"a Secrets Store CSI volume ({name})"
    host = str(as_dict(volume.get("hostPath")).get("path", ""))
    m = CREDENTIAL_PATHS.search(host + " ")
    if host and m:
        return f"host folder {host} (credential directory {m.group(1)}, volume {name})"
    return ""


def _token(doc: EvidenceDoc, path: tuple[str | int, ...], spec: dict[str, Any],
           findings: Findings) -> str:
    """The service account token: refuted when mounted, a gap when nothing says it is not."""
    flag = doc.at(*path, "automountServiceAccountToken")
    account = str(spec.get("serviceAccountName") or spec.get("serviceAccount") or "default")
    if flag is not None and flag.value is True:
        findings.refute(doc, flag, f"automountServiceAccountToken is true: account {account}'s "
                                   f"token is mounted at {SA_TOKEN_PATH}, readable by any "
                                   "command the agent runs")
        return ""
    if flag is not None and flag.value is False:
        return "automountServiceAccountToken is false"
    found = objects_named(doc, "ServiceAccount").get(account)
    if found is not None and found[1].get("automountServiceAccountToken") is False:
        return f"ServiceAccount {account} sets automountServiceAccountToken false"
    if found is not None and found[1].get("automountServiceAccountToken") is True:
        findings.refute(doc, (found[0], "automountServiceAccountToken"),
                        f"ServiceAccount {account} sets automountServiceAccountToken true and "
                        "the pod does not turn it off: its token is mounted at "
                        f"{SA_TOKEN_PATH}")
        return ""
    findings.gap(f"{doc.path}:{doc.line(*path)}: the pod spec does not set "
                 "automountServiceAccountToken, and Kubernetes mounts the service account's "
                 f"token (account {account}) at {SA_TOKEN_PATH} unless the pod or the "
                 "ServiceAccount sets it false (set it false in the pod, or export the "
                 "ServiceAccount)")
    return ""
