-- Optional hardening for production: each service connects as its own role that can only use its own schema.
-- Run once as a superuser against the platform database, then set CERTIFICATE_DATABASE_URL and MOBILITY_DATABASE_URL
-- to URLs with these roles (change the passwords first).
CREATE ROLE certificate_svc LOGIN PASSWORD 'change-me-certificate';
CREATE ROLE mobility_svc LOGIN PASSWORD 'change-me-mobility';

CREATE SCHEMA IF NOT EXISTS certificate AUTHORIZATION certificate_svc;
CREATE SCHEMA IF NOT EXISTS mobility AUTHORIZATION mobility_svc;

REVOKE ALL ON SCHEMA public FROM PUBLIC;
REVOKE ALL ON SCHEMA certificate FROM PUBLIC;
REVOKE ALL ON SCHEMA mobility FROM PUBLIC;
ALTER ROLE certificate_svc SET search_path = certificate;
ALTER ROLE mobility_svc SET search_path = mobility;
