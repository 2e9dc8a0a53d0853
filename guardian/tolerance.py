MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

TMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

,MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

/MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

vMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

:MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

,MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

.MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

`MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

bMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

`MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

(MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

/MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

bMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

kMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

/MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

_MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

bMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

.MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

)MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

bMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

wMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

'MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

wMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

(MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

-MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

kMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

-MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

bMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

bMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

)MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

(MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

γMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

+MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

1MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

)MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

-MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

kMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

vMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

wMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

-MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

kMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

wMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

xMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

—MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

bMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

wMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

vMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

-MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

—MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

xMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

SMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

AMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

FMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

EMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

TMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

YMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

_MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

MMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

AMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

RMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

GMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

IMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

NMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

(MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

1MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

0MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

)MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

,MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

.MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

TMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

-MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

:MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

DMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

EMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

FMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

AMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

UMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

LMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

TMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

_MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

NMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

EMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

AMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

RMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

_MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

TMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

IMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

EMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

_MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

TMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

OMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

LMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

EMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

RMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

AMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

NMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

CMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

EMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

.MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

UMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

MMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

EMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

AMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

SMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

UMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

RMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

EMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

DMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

(MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

'MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

bMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

)MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

wMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

bMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

wMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

,MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

wMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

;MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

/MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

vMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

`MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

_MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

_MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

`MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

xMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

.MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

_MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

_MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

_MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

_MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

#MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

kMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

<MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

>MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

/MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

<MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

vMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

>MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

-MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

>MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

(MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

|MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

ΔMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

|MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

,MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

,MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

wMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

)MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

MMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

EMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

AMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

SMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

UMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

RMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

EMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

DMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

:MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

[MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

,MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

[MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

,MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

,MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

]MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

]MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

=MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

{MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

3MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

2MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

/MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

:MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

(MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

3MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

.MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

3MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

-MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

0MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

5MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

,MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

4MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

-MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

0MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

4MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

,MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

bMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

,MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

4MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

,MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

vMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

vMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

-MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

kMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

;MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

(MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

/MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

/MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

.MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

)MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

,MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

8MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

,MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

1MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

6MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

8MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

:MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

xMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

|MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

ΔMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

|MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

3MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

.MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

3MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

-MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

5MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

(MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

-MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

2MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

2MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

.MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

1MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

-MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

5MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

)MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

,MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

xMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

|MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

ΔMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

|MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

2MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

.MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

0MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

-MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

5MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

)MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

,MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

}MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

DMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

EMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

FMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

AMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

UMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

LMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

TMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

_MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

NMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

EMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

AMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

RMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

_MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

TMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

IMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

EMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

_MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

TMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

OMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

LMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

EMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

RMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

AMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

NMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

CMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

EMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

:MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

=MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

MMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

EMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

AMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

SMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

UMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

RMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

EMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

DMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

[MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

3MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

2MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

/MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

]MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

[MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

1MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

]MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

_MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

(MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

:MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

,MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

vMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

:MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

)MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

-MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

>MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

|MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

NMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

:MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

TMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

hMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

/MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

vMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

,MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

NMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

(MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

mMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

aMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

)MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

.MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

=MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

MMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

EMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

AMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

SMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

UMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

RMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

EMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

DMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

.MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

gMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

(MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

{MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

pMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

}MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

/MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

{MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

dMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

vMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

cMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

}MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

"MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

)MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

uMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

NMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

fMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

iMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

NMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

oMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

lMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

sMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

 MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

eMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

nMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

tMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

rMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

yMEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

[MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

1MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

]MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}


MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

