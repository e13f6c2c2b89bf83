#!/bin/sh
# docker-entrypoint-initdb.d hook: creates the per-service roles and schemas in the platform database.
set -e
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -f /docker-entrypoint-initdb.d/roles.sql.in
