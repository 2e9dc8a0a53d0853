"""Bounds shared by settings, policies and the background loops that read them.

A day is the longest wait anything here asks a thread for: `threading` raises OverflowError
for a wait past `threading.TIMEOUT_MAX` (~292 years), which ends the waiting thread, and a
bound far below that is still far above any sensible setting. Its own module because
guardian.settings cannot import guardian.policy (the policy package imports settings).
"""

MAX_WAIT_S = 86_400.0  # longest timeout, interval or loop wait: a day
MAX_GAMMA = 64  # draft tokens per step: settings' depth table and policies' gamma bounds

# The most tokens one request may ask for (the API's cap; policies and upstream answers too).
MAX_NEW_TOKENS = 1 << 20
