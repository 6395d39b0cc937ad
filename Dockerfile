FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY domain domain
COPY application application
COPY projections projections
COPY api api
COPY workers workers
COPY skald_campaign skald_campaign
RUN pip install --no-cache-dir .
EXPOSE 8000
CMD ["skald", "serve", "--host", "0.0.0.0", "--port", "8000"]
