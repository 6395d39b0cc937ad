"""The API's own documentation, served from assets in the installed packages.

Swagger UI and ReDoc come from the `fastapi-offline` wheel, never a CDN: a table
with no internet still reads its docs. The pages start the viewers from a script
file of ours, so the strict Content-Security-Policy needs no inline script."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse
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
  <script src="/docs-assets/redoc.standalone.js"></script>
</body>
</html>
"""


@router.get("/docs", response_class=HTMLResponse)
def swagger_ui() -> HTMLResponse:
    return HTMLResponse(SWAGGER)


@router.get("/redoc", response_class=HTMLResponse)
def redoc() -> HTMLResponse:
    return HTMLResponse(REDOC)


def assets() -> StaticFiles:
    return StaticFiles(directory=ASSETS)
