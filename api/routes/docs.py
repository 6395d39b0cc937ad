"""The API's own documentation, served from assets in the installed packages.

Swagger UI and ReDoc come from the `fastapi-offline` wheel, never a CDN: a table
with no internet still reads its docs. The pages start the viewers from a script
file of ours, so the strict Content-Security-Policy needs no inline script."""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

router = APIRouter(include_in_schema=False)
ASSETS = Path(str(files("fastapi_offline") / "static"))

SWAGGER = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Skald API</title>
  <link rel="icon" href="/docs-assets/favicon.png">
  <link rel="stylesheet" href="/docs-assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs-assets/swagger-ui-bundle.js"></script>
  <script src="/static/docs.js"></script>
</body>
</html>
"""

REDOC = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Skald API</title>
  <link rel="icon" href="/docs-assets/favicon.png">
</head>
<body>
  <redoc spec-url="/openapi.json"></redoc>
  <script src="/redoc/redoc.js"></script>
</body>
</html>
"""


@router.get("/docs", response_class=HTMLResponse)
def swagger_ui() -> HTMLResponse:
    return HTMLResponse(SWAGGER)


@router.get("/redoc", response_class=HTMLResponse)
def redoc() -> HTMLResponse:
    return HTMLResponse(REDOC)


# ReDoc's side menu shows a "powered by" logo it fetches from cdn.redoc.ly: the docs'
# Content-Security-Policy blocks it (an error in every browser console), and a table
# offline has no CDN. The script is served with that logo taken out.
REDOC_LOGO = re.compile(r'\w\?\w\.createElement\("img",\{alt:"redocly logo",[^}]*\}\):null')


@cache
def redoc_script() -> bytes:
    script = (ASSETS / "redoc.standalone.js").read_text(encoding="utf-8")
    without, found = REDOC_LOGO.subn("null", script)
    if found != 1:  # a new ReDoc build; tests/integration/test_api_edges.py notices
        raise RuntimeError("ReDoc's CDN logo was not found in redoc.standalone.js")
    return without.encode("utf-8")


@router.get("/redoc/redoc.js")
def redoc_js() -> Response:
    return Response(redoc_script(), media_type="text/javascript")


def assets() -> StaticFiles:
    return StaticFiles(directory=ASSETS)
