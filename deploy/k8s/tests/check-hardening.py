#!/usr/bin/env python3
"""Checks the hardening of the Kubernetes manifests given as arguments, which the schemas do
not: every pod runs as a numeric non-root user under the RuntimeDefault seccomp profile; every
container forbids privilege escalation, drops every capability, has a read-only root
filesystem and CPU and memory requests and limits; every absolute path a container's command
names, and its HOME, TMPDIR and XDG_CACHE_HOME, lie on a writable emptyDir or
PersistentVolumeClaim mount; and no DaemonSet (which holds its node's GPUs between runs) is
left. Prints one line per fault and exits 1 when there is any.

With --self-test it first removes each required field in turn from a copy of the manifests
(and adds a DaemonSet) and fails unless every such copy is refused: the check can fail.
"""

import copy
import re
import sys

import yaml

# Where each kind keeps its pod spec.
POD_SPEC_PATHS = {
    "Pod": ["spec"],
    "Job": ["spec", "template", "spec"],
    "CronJob": ["spec", "jobTemplate", "spec", "template", "spec"],
    "Deployment": ["spec", "template", "spec"],
    "StatefulSet": ["spec", "template", "spec"],
    "DaemonSet": ["spec", "template", "spec"],
}

# Environment variables that name where a program writes.
WRITTEN_ENV = ["HOME", "TMPDIR", "XDG_CACHE_HOME"]

# An absolute path in a shell command (up to the first character a path here never has).
PATH_IN_COMMAND = re.compile(r"(?<![\w$}])(/[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.*$-]*)*)")


def dig(value, keys):
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def setting(pod, container, key):
    """A securityContext setting of the container, else of the pod."""
    own = dig(container, ["securityContext", key])
    return own if own is not None else dig(pod, ["securityContext", key])


def writable_mounts(pod, container):
    kinds = {}
    for volume in pod.get("volumes") or []:
        if "emptyDir" in volume or "persistentVolumeClaim" in volume:
            kinds[volume.get("name")] = True
    return [
        m["mountPath"].rstrip("/") + "/"
        for m in container.get("volumeMounts") or []
        if kinds.get(m.get("name")) and not m.get("readOnly", False)
    ]


def check_container(where, pod, container):
    faults = []
    say = lambda text: faults.append(f"{where}: {text}")
    user = setting(pod, container, "runAsUser")
    if setting(pod, container, "runAsNonRoot") is not True:
        say("runAsNonRoot is not true")
    if not isinstance(user, int) or isinstance(user, bool) or user <= 0:
        say("no numeric non-root runAsUser")
    if dig(setting(pod, container, "seccompProfile"), ["type"]) != "RuntimeDefault":
        say("seccompProfile is not RuntimeDefault")
    security = container.get("securityContext") or {}
    if security.get("allowPrivilegeEscalation") is not False:
        say("allowPrivilegeEscalation is not false")
    if "ALL" not in (dig(security, ["capabilities", "drop"]) or []):
        say("capabilities do not drop ALL")
    if security.get("readOnlyRootFilesystem") is not True:
        say("readOnlyRootFilesystem is not true")
    for part in ["requests", "limits"]:
        for resource in ["cpu", "memory"]:
            if dig(container, ["resources", part, resource]) is None:
                say(f"no {resource} in resources.{part}")
    mounts = writable_mounts(pod, container)
    on_mount = lambda path: any((path.rstrip("/") + "/").startswith(m) for m in mounts)
    env = {e.get("name"): e.get("value") for e in container.get("env") or []}
    for name in WRITTEN_ENV:
        value = env.get(name)
        if not isinstance(value, str) or not on_mount(value):
            say(f"{name} is not set to a path on a writable emptyDir or PVC mount")
    words = " ".join(str(a) for a in (container.get("args") or []))
    command = container.get("command") or []
    words += " " + " ".join(str(a) for a in command[1:])
    for path in PATH_IN_COMMAND.findall(words):
        if not on_mount(path):
            say(f"{path} (in its command) is not on a writable emptyDir or PVC mount")
    return faults


def check_documents(documents):
    faults = []
    for name, document in documents:
        kind = document.get("kind")
        where = f"{name}: {kind}/{dig(document, ['metadata', 'name'])}"
        if kind == "DaemonSet":
            faults.append(f"{where}: a DaemonSet holds its node's GPUs between runs")
        path = POD_SPEC_PATHS.get(kind)
        if path is None:
            continue
        pod = dig(document, path)
        if not isinstance(pod, dict):
            faults.append(f"{where}: no pod spec")
            continue
        containers = (pod.get("initContainers") or []) + (pod.get("containers") or [])
        if not containers:
            faults.append(f"{where}: no containers")
        for container in containers:
            faults += check_container(f"{where} container {container.get('name')}", pod, container)
    return faults


def mutations(documents):
    """Copies of the documents, each with one required thing taken away."""
    removals = [
        ("securityContext", "runAsNonRoot"),
        ("securityContext", "runAsUser"),
        ("securityContext", "seccompProfile"),
        ("securityContext", "allowPrivilegeEscalation"),
        ("securityContext", "capabilities"),
        ("securityContext", "readOnlyRootFilesystem"),
        ("resources", "requests"),
        ("resources", "limits"),
        (None, "env"),
        (None, "volumeMounts"),
    ]
    for index, (name, document) in enumerate(documents):
        path = POD_SPEC_PATHS.get(document.get("kind"))
        if path is None:
            continue
        for parent, key in removals:
            changed = copy.deepcopy(documents)
            pod = dig(changed[index][1], path)
            for holder in [pod] + (pod.get("containers") or []):
                target = holder.get(parent) if parent else holder
                if isinstance(target, dict):
                    target.pop(key, None)
            yield f"{name} without {parent or 'container'}.{key}", changed
    daemonset = {
        "kind": "DaemonSet",
        "metadata": {"name": "gpu-holder"},
        "spec": {"template": {"spec": {"containers": []}}},
    }
    yield "a DaemonSet added", documents + [("added.yaml", daemonset)]


def main(arguments):
    self_test = "--self-test" in arguments
    files = [a for a in arguments if a != "--self-test"]
    documents = []
    for name in files:
        with open(name, encoding="utf-8") as file:
            documents += [(name, d) for d in yaml.safe_load_all(file) if d]
    if not documents:
        print("check-hardening: no manifests given")
        return 1
    if self_test:
        missed = [what for what, changed in mutations(documents) if not check_documents(changed)]
        for what in missed:
            print(f"check-hardening: self-test: {what} was not refused")
        if missed:
            return 1
    faults = check_documents(documents)
    for fault in faults:
        print(fault)
    if faults:
        return 1
    print(f"check-hardening: {len(documents)} manifests hardened")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
