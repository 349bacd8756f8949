# Hindsight — the two commands a newcomer needs are `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run test test-unit test-integration test-e2e schemas bench-locomo typecheck clean infra-up infra-down infra-status \
	cluster-up cluster-down cluster-status replay rebuild-e2e verify bench k8s-render k8s-validate lint chaos

$(STAMP): pyproject.toml libs/common/pyproject.toml libs/client/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ./libs/common[embedded,cluster] -e ./libs/client -e .[dev]
	touch $(STAMP)

install: $(STAMP)  ## create .venv with Hindsight and its test tools

run: $(STAMP)  ## run Hindsight embedded on http://127.0.0.1:8080 (no servers needed)
	$(VENV)/bin/hindsight serve

CHROMIUM := /usr/bin/chromium
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

$(CHROMIUM):  # the web UI tests drive Debian's Chromium; Playwright never downloads a browser
	$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium

test: $(STAMP) $(CHROMIUM)  ## type-check, then every test suite against real local servers
	$(PY) -m mypy
	deploy/local/with-servers.sh $(PY) -m pytest -q

infra-up:  ## start PostgreSQL, Kafka, Elasticsearch and Neo4j on 127.0.0.1 (no Docker)
	deploy/local/infra.sh up

infra-down:
	deploy/local/infra.sh down

infra-status:
	deploy/local/infra.sh status

cluster-up: $(STAMP)  ## the six services as `hindsight run` processes on the local servers (after infra-up)
	deploy/local/cluster.sh up

cluster-down:
	deploy/local/cluster.sh down

cluster-status:
	deploy/local/cluster.sh status

ARGS ?=

replay: $(STAMP)  ## rebuild the projections from the log into new versions, also while serving (ARGS="--projection all ...")
	$(VENV)/bin/hindsight replay $(ARGS)

rebuild-e2e: $(STAMP)  ## the online-rebuild e2e tests with the issue's 5,000 interactions (minutes; not in `make test`)
	HINDSIGHT_REBUILD_E2E_N=5000 deploy/local/with-servers.sh $(PY) -m pytest -q tests/integration/test_online_rebuild.py

verify: $(STAMP)  ## compare each projection's digest with what the log implies (ARGS=...)
	$(VENV)/bin/hindsight verify $(ARGS)

BENCH ?= recall

bench: $(STAMP)  ## a benchmark that prints figures (BENCH=recall|reflect|security|locomo, ARGS=...)
	$(VENV)/bin/hindsight bench $(BENCH) $(ARGS)

OVERLAY ?= dev

k8s-render: $(STAMP)  ## print what kustomize renders for deploy/k8s/overlays/$(OVERLAY)
	@$(PY) deploy/validate/deploy_check.py render deploy/k8s/overlays/$(OVERLAY)

k8s-validate: $(STAMP)  ## every kustomization and compose file against its schemas (kubeconform, Compose spec)
	$(PY) deploy/validate/deploy_check.py check

lint: $(STAMP)  ## mypy --strict, shell syntax, the deploy validation
	$(PY) -m mypy
	$(PY) -m mypy --strict deploy/validate
	for f in deploy/local/*.sh deploy/local/servers/*.sh deploy/local/lib/*.sh; do bash -n "$$f" || exit 1; done
	$(PY) deploy/validate/deploy_check.py check

FAULT_TESTS := tests/e2e/test_faults_outages.py tests/e2e/test_faults_grpc_fuzz.py tests/e2e/test_faults_mcp_fuzz.py \
	tests/e2e/test_faults_poison.py tests/e2e/test_faults_poison_readers.py tests/e2e/test_faults_kill9.py \
	tests/integration/test_effect_audit.py tests/integration/test_recall_degraded.py tests/unit/test_event_fuzz.py

chaos: $(STAMP)  ## the fault suite, longer (not in `make test`): private ES/Neo4j stopped 30 s, 24 kill -9s, more fuzz examples
	HINDSIGHT_CHAOS=1 deploy/local/with-servers.sh $(PY) -m pytest -q $(FAULT_TESTS)

test-unit: $(STAMP)
	$(PY) -m pytest -q tests/unit

test-integration: $(STAMP)
	$(PY) -m pytest -q tests/integration

test-e2e: $(STAMP) $(CHROMIUM)
	$(PY) -m pytest -q tests/e2e

schemas: $(STAMP)  ## regenerate schemas/ from the event models
	$(PY) -m hindsight_common.schema_export schemas
	$(PY) -m hindsight_services.openapi schemas
	$(PY) -m hindsight_services.asyncapi schemas

typecheck: $(STAMP)
	$(PY) -m mypy

bench-locomo: $(STAMP)  ## LoCoMo retrieval benchmark (DATA=path to the LoCoMo JSON)
	$(VENV)/bin/hindsight bench locomo --data $(DATA)

clean:
	rm -rf $(VENV) .hindsight
