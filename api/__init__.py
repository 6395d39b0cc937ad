"""The HTTP API: thin FastAPI routes over the application's command and read methods."""
