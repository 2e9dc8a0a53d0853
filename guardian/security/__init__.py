"""Who may do what: API keys, principals and roles (auth), and the sidecar's own secrets
(secrets)."""
