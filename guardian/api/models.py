"""`GET /v1/models` (role: inference): the models this key may use — the target's name and the
route aliases whose routes its key allows (all of them for admin and for keys without a
`routes:` list, which may use any model's own route)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from guardian.api.deps import ServicesDep, require
from guardian.api.schemas import Model, ModelList
from guardian.security.auth import Principal

router = APIRouter(tags=["inference"])

InferenceKey = Annotated[Principal, Depends(require("inference"))]


@router.get("/v1/models", response_model=ModelList)
async def list_models(services: ServicesDep, who: InferenceKey) -> ModelList:
    core = services.core
    names = core.model_names()
    if who.role != "admin" and who.routes is not None:
        # A model is usable when the route it maps to (else the default route) is allowed;
        # listing the others would enumerate routes this key has no business knowing.
        policy = core.policy
        names = [n for n in names
                 if (policy.route_for_model(n) or policy.default_route) in who.routes]
    created = int(services.started_at)
    return ModelList(data=[Model(id=name, created=created) for name in names])
