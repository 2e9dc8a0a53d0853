"""`GET /v1/models` (role: inference): the target's name plus every route's model aliases."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from guardian.api.deps import ServicesDep, require
from guardian.api.schemas import Model, ModelList

router = APIRouter(tags=["inference"], dependencies=[Depends(require("inference"))])


@router.get("/v1/models", response_model=ModelList)
async def list_models(services: ServicesDep) -> ModelList:
    created = int(services.started_at)
    return ModelList(data=[Model(id=name, created=created) for name in services.core.model_names()])
