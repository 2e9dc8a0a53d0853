"""The demo pair: corpus split (fast) and the built pair's quality (integration)."""

from __future__ import annotations

import pytest

from engine.demo_pair import corpus
from engine.demo_pair.evaluate import AcceptanceReport, simulate_greedy
from engine.metrics import SpecCounters


def test_split_is_deterministic_and_disjoint() -> None:
    files = corpus.load_corpus()
    train = {f.rel_path for f in files if not f.heldout}
    heldout = {f.rel_path for f in files if f.heldout}
    assert train and heldout and not train & heldout
    assert 0.04 < len(heldout) / len(files) < 0.2
    # The split depends on the path only: recomputing it (as another process would) agrees.
    assert {p for p in train | heldout if corpus.is_heldout(p)} == heldout
    assert not any("site-packages" in p or p.startswith("test/") for p in train | heldout)


def test_train_and_heldout_texts_do_not_overlap() -> None:
    assert not set(corpus.train_texts()) & set(corpus.heldout_texts())


def test_heldout_prompts_are_deterministic_and_end_inside_a_body() -> None:
    a = corpus.heldout_prompts(8, seed=3)
    assert a == corpus.heldout_prompts(8, seed=3)
    assert a != corpus.heldout_prompts(8, seed=4)
    heldout = "\n".join(corpus.heldout_texts())
    for prompt in a:
        header = prompt.rstrip(" \t").rstrip("\n").splitlines()[-1]
        assert header.lstrip().startswith(("def ", "class ", "async def ")), prompt
        assert prompt.endswith(" ") or prompt.endswith("\t")  # the body's indentation
        assert prompt.rstrip() in heldout


def test_code_edit_prompts_contain_the_code_being_rewritten() -> None:
    a = corpus.code_edit_prompts(6, seed=1)
    assert a == corpus.code_edit_prompts(6, seed=1) and a != corpus.code_edit_prompts(6, seed=2)
    heldout = "\n".join(corpus.heldout_texts())
    for prompt in a:
        instruction, rest = prompt.split("\n", 1)
        code, rewritten = rest.split("\n# Rewritten:\n")
        old, new = instruction.removeprefix("# Rename ").removesuffix(" in this function:").split(
            " to ")
        assert new == f"new_{old}"
        assert code.startswith(("def ", "async def ")) and len(code.splitlines()) > 3
        # the function is held-out source (dedented), and the rewrite starts with its header
        assert code.splitlines()[1].strip() in heldout
        header, first = code.splitlines()[0], code.split("\n", 1)[1]
        # the rewrite starts with the renamed header and ends inside the body, at its first
        # word (a prompt ending at a line's bare newline invites the end of text)
        new_header, start = rewritten.split("\n", 1)
        assert new in new_header and new_header.replace(new, old) == header
        assert start.strip() and first.startswith(start.replace(new, old))
        assert not rewritten.endswith("\n")


def test_files_split_into_units_at_top_level_defs_with_their_decorators() -> None:
    text = ("import os\n\n@dec\n@dec2(\n  1)\ndef f():\n    return 1\n\n\n"
            "class A:\n    def g(self):\n        pass\n\nX = 1\nasync def h():\n    pass\n")
    assert corpus.split_units(text) == [
        "import os\n", "@dec\n@dec2(\n  1)\ndef f():\n    return 1\n",
        "class A:\n    def g(self):\n        pass\n\nX = 1\n", "async def h():\n    pass\n"]
    # nothing is lost but the blank lines between units
    for src in corpus.train_texts()[:20]:
        assert "".join(corpus.split_units(src)).replace("\n", "") == src.replace("\n", "").rstrip()


def test_simulated_greedy_steps_follow_the_definition() -> None:
    report = AcceptanceReport(gamma=4)
    # 9 tokens: step 1 accepts 4 (+bonus) = 5 tokens; step 2 accepts 1 then rejects (+1)
    # = 2 tokens; step 3 may draft only 1 of the last 2 and it is rejected: 1 token; step 4: 1.
    simulate_greedy([True] * 4 + [True] + [True, False] + [False, True], 4, report)
    assert (report.steps, report.accepted, report.emitted) == (4, 5, 9)
    # proposed: 4 + 3 (4 tokens left) + 1 + 0; judged: 4 + 2 (accept, reject) + 1 + 0
    assert (report.proposed, report.judged) == (8, 7)
    assert report.mean_acceptance_length == pytest.approx(1 + 5 / 4)
    assert report.acceptance_rate == pytest.approx(5 / 8)
    assert report.alpha == pytest.approx(5 / 7)
    assert report.accepted_per_position == [2, 1, 1, 1]


@pytest.mark.integration
@pytest.mark.slow
def test_demo_pair_loads_and_shares_one_tokenizer(demo_pair_paths) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    draft_tok = AutoTokenizer.from_pretrained(demo_pair_paths.draft_dir)
    target_tok = AutoTokenizer.from_pretrained(demo_pair_paths.target_dir)
    assert draft_tok.get_vocab() == target_tok.get_vocab()
    assert draft_tok.chat_template == target_tok.chat_template
    assert (draft_tok.eos_token_id, draft_tok.pad_token_id) == (target_tok.eos_token_id,
                                                                target_tok.pad_token_id)
    # transformers 5 writes the chat template to chat_template.jinja beside the config.
    for name in ("tokenizer.json", "tokenizer_config.json", "chat_template.jinja"):
        assert ((demo_pair_paths.draft_dir / name).read_bytes()
                == (demo_pair_paths.target_dir / name).read_bytes())
    chat = target_tok.apply_chat_template([{"role": "user", "content": "hi"}], tokenize=False,
                                          add_generation_prompt=True)
    assert chat.endswith("<|im_start|>assistant\n")

    draft = AutoModelForCausalLM.from_pretrained(demo_pair_paths.draft_dir)
    target = AutoModelForCausalLM.from_pretrained(demo_pair_paths.target_dir)
    assert draft.config.vocab_size == target.config.vocab_size == len(target_tok)
    assert draft.config.num_hidden_layers < target.config.num_hidden_layers


@pytest.fixture(scope="session")
def greedy_samples(demo_pair_paths):
    """16 held-out prompts with the target's greedy 64-token continuations (the evaluator's)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from engine.demo_pair import evaluate

    torch.set_num_threads(2)
    tok = AutoTokenizer.from_pretrained(demo_pair_paths.target_dir)
    target = AutoModelForCausalLM.from_pretrained(demo_pair_paths.target_dir).eval()
    prompts = corpus.heldout_prompts(16, seed=0, count_tokens=lambda s: len(tok(s).input_ids))
    return prompts, evaluate.greedy_continuations(target, tok, prompts, max_new_tokens=64)


@pytest.mark.integration
@pytest.mark.slow
def test_demo_pair_accepts_at_least_2_5_tokens_per_step_at_gamma_4(demo_pair_paths,
                                                                    greedy_samples) -> None:
    from transformers import AutoModelForCausalLM

    from engine.demo_pair import evaluate

    draft = AutoModelForCausalLM.from_pretrained(demo_pair_paths.draft_dir).eval()
    report = evaluate.acceptance(draft, greedy_samples[1], gamma=4)
    # Random weights give ~1.0; the trained, distilled pair well above 2.5. The bound leaves
    # room for per-machine builds (CPU summation order differs between hosts): measured 2.79
    # on this evaluator for one machine's build whose engine bench MAL was 3.3.
    assert report.mean_acceptance_length >= 2.5, report
    # The target learned Python: held-out loss far below the unigram entropy (~6.35 nats).
    assert demo_pair_paths.manifest["target"]["heldout_loss"] < 4.5


@pytest.mark.integration
@pytest.mark.slow
def test_engine_speculative_decoding_of_the_demo_pair_matches_the_evaluator(
        demo_pair_paths, greedy_samples) -> None:
    """The real engine at gamma=4 greedy: same tokens as target-only, MAL >= 2.5."""
    api = pytest.importorskip("engine.api")
    from engine.loading import load_pair

    pair = load_pair(demo_pair_paths.draft_dir, demo_pair_paths.target_dir, device="cpu")
    prompts, samples = greedy_samples
    counters = []
    for prompt, (_, expected) in zip(prompts, samples, strict=True):
        result = api.generate(pair, prompt, speculative=True, max_new_tokens=64, gamma=4)
        # Whether a final EOS is part of the completion is the engine's choice; compare text.
        assert _strip_eos(result.token_ids, pair) == _strip_eos(expected, pair)
        counters.append(result.stats.counters)
    assert SpecCounters.total(counters).mean_acceptance_length >= 2.5


def _strip_eos(ids: list[int], pair) -> list[int]:
    return ids[:-1] if ids and ids[-1] in pair.eos_token_ids else ids


@pytest.mark.integration
@pytest.mark.slow
def test_the_target_ends_a_finished_top_level_function_with_eos(demo_pair_paths) -> None:
    """v3 trains on units that end with EOS, so the target can end a completion with EOS where
    a top-level function ends (v2 never did within a completion). Measured on the v3 build:
    of held-out top-level functions cut before their last line, 1/24 end with EOS within 40
    greedy tokens (5/80 in the fault suite's screen) — the model usually writes more lines
    first. Rare, but enough for EOS handling to be exercised by the suite's EOS prompts.
    Builds differ per machine (CPU summation order): another machine's build had 0/24 but
    5/80 (#52, 75, 77, 78, 79), so all 80 candidates are tried (~10 s)."""
    from engine.loading import load_pair
    from tests.faults.traffic import eos_candidates

    api = pytest.importorskip("engine.api")
    assert demo_pair_paths.manifest["corpus"]["train_units"] > 1000
    pair = load_pair(demo_pair_paths.draft_dir, demo_pair_paths.target_dir, device="cpu")
    prompts = eos_candidates(limit=80)
    ended = 0
    for prompt in prompts:
        result = api.generate(pair, prompt, speculative=False, max_new_tokens=40)
        ended += bool(result.token_ids) and result.token_ids[-1] in pair.eos_token_ids
    assert ended >= 1, f"{ended}/{len(prompts)} completions ended with EOS"
