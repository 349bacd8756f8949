# One image for every Hindsight service; the command picks what runs.
FROM python:3.11-slim
WORKDIR /app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    HINDSIGHT_HOST=0.0.0.0 HINDSIGHT_DATA_DIR=/data
COPY libs/common/pyproject.toml libs/common/pyproject.toml
COPY libs/common/hindsight_common libs/common/hindsight_common
COPY libs/client libs/client
COPY pyproject.toml README.md ./
COPY services services
# Our libraries install from the tree (hindsight-memory-*: "hindsight-client" on PyPI is another project).
RUN pip install --no-cache-dir ./libs/common[embedded,cluster] ./libs/client .
EXPOSE 8080 50051
VOLUME ["/data"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s \
  CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8080/healthz').status!=200)"
ENTRYPOINT ["hindsight"]
CMD ["serve"]
