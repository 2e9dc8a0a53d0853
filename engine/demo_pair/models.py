"""Architectures of the demo pair: a deep, narrow Llama target and a one-layer Llama draft.

On CPU at batch 1 a small model's forward is bound by per-layer overhead, not FLOPs, so
the draft/target cost ratio c is roughly (draft layers + fixed) / (target layers + fixed).
The target is therefore deep and narrow (many cheap layers, cheap to train), the draft a
single layer of the same width that shares the target's tokenizer, embedding and lm_head.
"""

from __future__ import annotations

from dataclasses import dataclass

from transformers import LlamaConfig, LlamaForCausalLM


@dataclass(frozen=True, slots=True)
class PairArch:
    vocab_size: int = 4096  # byte-level BPE; larger vocab = shorter sequences but costlier lm_head
    hidden_size: int = 128  # narrow: training cost is ~params x tokens and the budget is minutes
    intermediate_size: int = 384  # 3x hidden (SwiGLU)
    head_dim: int = 64  # 2 heads at 128; fewer, wider heads are cheaper per layer on CPU
    target_layers: int = 10  # depth sets the per-token cost on CPU (c ~ 2/11); 12 trains too slowly
    draft_layers: int = 1
    max_position_embeddings: int = 1024
    rope_theta: float = 10_000.0

    def config(self, num_layers: int, *, bos_id: int, eos_id: int, pad_id: int) -> LlamaConfig:
        heads = self.hidden_size // self.head_dim
        return LlamaConfig(
            vocab_size=self.vocab_size,
            hidden_size=self.hidden_size,
            intermediate_size=self.intermediate_size,
            num_hidden_layers=num_layers,
            num_attention_heads=heads,
            num_key_value_heads=heads,
            head_dim=self.head_dim,
            max_position_embeddings=self.max_position_embeddings,
            rope_theta=self.rope_theta,
            # Tied: the draft copies one matrix from the target and keeps its geometry.
            tie_word_embeddings=True,
            bos_token_id=bos_id,
            eos_token_id=eos_id,
            pad_token_id=pad_id,
            initializer_range=0.02,
        )

    def target(self, **ids: int) -> LlamaForCausalLM:
        return LlamaForCausalLM(self.config(self.target_layers, **ids))

    def draft(self, **ids: int) -> LlamaForCausalLM:
        return LlamaForCausalLM(self.config(self.draft_layers, **ids))


def count_parameters(model: LlamaForCausalLM) -> int:
    """Unique parameters (the tied embedding / lm_head counted once)."""
    return sum(p.numel() for p in {id(p): p for p in model.parameters()}.values())
