"""A tiny client for SimCord's Preview HTTP API: what the browser page does, without a browser.

Used by the offline tests to prove the composer path (type `/encounter start` in the page) works.
"""

from __future__ import annotations

import json
import urllib.request
import uuid
from typing import Any


class PreviewClient:
    """One Preview page (context) opened from a capability URL printed by `opportunist offline`."""

    def __init__(self, url: str) -> None:
        self.base, self.capability = url.split("/#", 1)
        self.page = self.call("POST", "/api/pages", {})
        self.context = self.page["context"]["id"]
        self.sequence = 0

    def call(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"X-Simcord-Capability": self.capability, "Content-Type": "application/json"}
        if getattr(self, "context", None):
            headers["X-Simcord-Context"] = self.context
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)  # noqa: S310
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - loopback only
            return json.loads(response.read())

    def state(self) -> Any:
        self.page = self.call("GET", "/api/state")
        return self.page

    def slash(self, invocation: str, **options: str) -> Any:
        """Run a slash command from the composer as the page's current viewer."""
        catalog = self.call("GET", "/api/commands")
        entry = next(e for e in catalog["entries"] if e["invocation"] == invocation)
        self.sequence += 1
        body = {
            "protocol_version": 3,
            "sequence": self.sequence,
            "request_id": uuid.uuid4().hex,
            "generation": self.page["context"]["generation"],
            "bot_generation": self.page["botGeneration"],
            "published_revision": self.page["publishedRevision"],
            "kind": "run_command",
            "command_id": entry["commandId"],
            "path": entry["path"],
            "schema_fingerprint": entry["schemaFingerprint"],
            "options": options,  # as typed: strings, the Preview converts them
        }
        result = self.call("POST", "/api/action", body)
        self.state()
        return result

    def excerpts(self) -> list[str]:
        """The visible messages' excerpts, oldest first."""
        return [m.get("excerpt", "") for m in self.page.get("messageIndex", [])]
