"""Headers every response carries, so the pages run only their own scripts and no
address a page visits (which may name a campaign) leaks to another site.

A pure ASGI middleware: it adds headers to the response start and leaves the body
alone, so the live feed keeps streaming."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

# The pages: scripts, styles, images and requests from this server only; nothing
# inline, no frames, no plugins, forms post nowhere else.
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
# Swagger UI and ReDoc set style attributes from script and ReDoc starts a worker
# from a blob; their scripts still come from this server only.
DOCS_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self' data:; "
    "worker-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
DOCS_PATHS = ("/docs", "/redoc")


def _headers(policy: str) -> list[tuple[bytes, bytes]]:
    return [
        (b"content-security-policy", policy.encode()),
        (b"referrer-policy", b"no-referrer"),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
    ]


_PAGE_HEADERS, _DOCS_HEADERS = _headers(PAGE_POLICY), _headers(DOCS_POLICY)


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The headers every answer to a request for ``path`` carries (shared: copy to change)."""
    return _DOCS_HEADERS if path.startswith(DOCS_PATHS) else _PAGE_HEADERS


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = security_headers(scope["path"])

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)
