"""The serving path: admission (bounded queues, deadlines, cancellation), the serving core
(route, mode in force, fallback, load shedding) and the recorder of requests' audit events.
Never imports guardian.api or guardian.governance."""
