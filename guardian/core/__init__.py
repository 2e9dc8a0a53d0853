"""The ground floor of the sidecar: its vocabulary (enums), bounds (limits), the request error
type (errors), valid text (text), durable small files (fileio), data-file locations (resources)
and the database engine factory (db). Imports nothing else of guardian."""
