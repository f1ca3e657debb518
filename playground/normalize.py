"""Sentence splitting and a rule-based verbalizer of *candidates* for text normalization.

The verbalizer does not decide: for each raw token it lists the plausible spoken forms
("1990" -> ["nineteen ninety", "one thousand nine hundred ninety"]); the front-end LM chooses
among them under a structured-output constraint (playground.constraints). The same verbalizer
writes the gold training targets (models/frontend/build_data.py), so training and runtime agree.
Candidates are ordered by simple context rules, so `default_normalization` is a usable fallback.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import yaml
from num2words import num2words

Segment = list[str]  # alternatives for one raw token; a fixed string is a one-element list

ABBREVIATIONS_YAML = Path(__file__).resolve().parents[1] / "presets" / "abbreviations.yaml"
SENTENCE_PUNCT = ",.?!"
MONTHS = (
    "january february march april may june july august september october november december"
).split()
_MONTH_ABBR = {m[:3]: m for m in MONTHS} | {"sept": "september"}
_SCALES = {"thousand", "million", "billion", "trillion"}
_YEAR_CUES = {"in", "since", "of", "year", "until", "by", "from", "around", "circa", "during", "till"}
_DATE_CUES = {"on", "by", "until", "since", "before", "after", "from", "due", "dated", "till"}
_FRACTION_CUES = {"cup", "cups", "of", "inch", "inches", "mile", "miles", "teaspoon", "tablespoon",
                  "pound", "pounds", "hour", "hours", "liter", "liters", "ounce", "ounces"}
_CURRENCY = {"$": ("dollar", "dollars", "cent", "cents"), "£": ("pound", "pounds", "penny", "pence"),
             "€": ("euro", "euros", "cent", "cents")}
_FRACTIONS = {(1, 2): "one half", (1, 4): "one quarter", (3, 4): "three quarters"}
_DIGITS = "zero one two three four five six seven eight nine".split()


@lru_cache(maxsize=1)
def _abbreviations() -> tuple[dict[str, list[str]], frozenset[str]]:
    data = yaml.safe_load(ABBREVIATIONS_YAML.read_text())
    table = {k.lower(): [str(v) for v in vals] for k, vals in data["abbreviations"].items()}
    return table, frozenset(s.lower() for s in data.get("no_split", []))


# ---------------------------------------------------------------- numbers
def _clean(words: str) -> str:
    """num2words style -> ours: no commas, no hyphens, no British 'and'."""
    words = words.replace(",", " ").replace("-", " ")
    return " ".join(w for w in words.split() if w != "and")


def cardinal(n: int) -> str:
    if n < 0:
        return "minus " + cardinal(-n)
    if n >= 10**15:
        return digits(str(n))
    return _clean(num2words(n))


def ordinal(n: int) -> str:
    return _clean(num2words(n, to="ordinal"))


def year(n: int) -> str:
    return _clean(num2words(n, to="year"))


def digits(s: str) -> str:
    return " ".join(_DIGITS[int(c)] for c in s if c.isdigit())


def decimal(s: str) -> str:
    """'3.14' -> 'three point one four' (digits after the point read one by one)."""
    whole, _, frac = s.partition(".")
    head = cardinal(int(whole.replace(",", ""))) if whole else ""
    return (head + " point " + digits(frac)).strip()


def fraction(num: int, den: int) -> str:
    if (num, den) in _FRACTIONS:
        return _FRACTIONS[(num, den)]
    if den == 2:
        return cardinal(num) + " halves"
    word = ordinal(den)
    return f"{cardinal(num)} {word}{'s' if num != 1 else ''}"


def _plural_year(word: str) -> str:
    """'nineteen ninety' -> 'nineteen nineties'."""
    head, _, last = word.rpartition(" ")
    last = last[:-1] + "ies" if last.endswith("y") else last + "s"
    return (head + " " + last).strip()


def money(sym: str, whole: str, cents: str | None) -> list[str]:
    one, many, sub1, subn = _CURRENCY[sym]
    n = int(whole.replace(",", "")) if whole else 0
    c = int((cents + "0")[:2]) if cents else 0
    unit = one if n == 1 else many
    sub = sub1 if c == 1 else subn
    if c == 0:
        out = [f"{cardinal(n)} {unit}"]
        if 1100 <= n < 10000 and n % 100 == 0 and n % 1000:
            out.append(f"{cardinal(n // 100)} hundred {many}")
        return out
    if n == 0:
        return [f"{cardinal(c)} {sub}", f"zero {many} and {cardinal(c)} {sub}"]
    # no bare "five thirty": it drops the currency and reads like a time of day
    return [f"{cardinal(n)} {unit} and {cardinal(c)} {sub}", f"{cardinal(n)} {unit} {cardinal(c)}"]


def time_of_day(h: int, m: int, ampm: bool) -> list[str]:
    if m == 0:
        return [cardinal(h), f"{cardinal(h)} o'clock"] if ampm else [f"{cardinal(h)} o'clock", cardinal(h)]
    if m < 10:
        return [f"{cardinal(h)} oh {cardinal(m)}"]
    return [f"{cardinal(h)} {cardinal(m)}"]


def integer_candidates(s: str, prev: str, nxt: str, month_before: bool) -> list[str]:
    if len(s) > 1 and s.startswith("0"):
        return [digits(s)]
    n = int(s)
    if month_before and 1 <= n <= 31:
        return [ordinal(n), cardinal(n)]
    if 1000 <= n <= 2099 and n % 1000:
        yr, card = year(n), cardinal(n)
        cands = [yr, card] if (prev in _YEAR_CUES or prev in MONTHS or month_before) else [card, yr]
        if n >= 2010 and "two thousand" not in cands[0] + cands[1]:
            cands.append(card)
        return list(dict.fromkeys(cands))
    return [cardinal(n)]


# ---------------------------------------------------------------- tokens
_RE_MONEY = re.compile(r"^([$£€])(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d{1,2}))?$")
_RE_PERCENT = re.compile(r"^(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?%$")
_RE_ORDINAL = re.compile(r"^(\d+)(st|nd|rd|th)$", re.I)
_RE_TIME = re.compile(r"^(\d{1,2}):(\d{2})(am|pm|a\.m\.|p\.m\.)?$", re.I)
_RE_HOUR_AMPM = re.compile(r"^(\d{1,2})(am|pm|a\.m\.|p\.m\.)$", re.I)
_RE_SLASH = re.compile(r"^(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?$")
_RE_DECADE = re.compile(r"^(\d{2}|\d{4})'?s$")
_RE_RANGE = re.compile(r"^(\d+)[-–](\d+)$")
_RE_COMMA_INT = re.compile(r"^\d{1,3}(?:,\d{3})+$")
_RE_DECIMAL = re.compile(r"^(\d*)\.(\d+)$")
_RE_INT = re.compile(r"^-?\d+$")
_RE_HASH = re.compile(r"^#(\d+)$")
_LEAD = "\"'([{<*_`~"
_TRAIL = "\"')]}>*_`~,.?!;:"


def _ascii(text: str) -> str:
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    text = text.replace("\u2014", " - ").replace("\u2013", "-").replace("\u2026", "...")
    # keep the currency signs we verbalize; drop accents and everything else non-ASCII
    return "".join(
        c if c in "£€" else unicodedata.normalize("NFKD", c).encode("ascii", "ignore").decode() for c in text
    )


def _split_token(tok: str) -> tuple[str, str, str]:
    """'("Dr.",' -> ('("', 'Dr.', '",'); a trailing '.' stays on known abbreviations."""
    table, _ = _abbreviations()
    i = 0
    while i < len(tok) and tok[i] in _LEAD:
        i += 1
    j = len(tok)
    while j > i and tok[j - 1] in _TRAIL:
        j -= 1
    core, trail = tok[i:j], tok[j:]
    if trail.startswith(".") and (core + ".").lower() in table:
        core, trail = core + ".", trail[1:]
    elif trail.startswith(".") and re.fullmatch(r"(?:[A-Za-z]\.)+[A-Za-z]", core):  # U.S.A.
        core, trail = core + ".", trail[1:]
    return tok[:i], core, trail


def _punct(trail: str) -> str:
    """The one sentence mark a token carries: the last of , . ? ! (';' ':' read as ',')."""
    marks = [c if c in SENTENCE_PUNCT else "," for c in trail if c in SENTENCE_PUNCT + ";:"]
    if not marks:
        return ""
    if "?" in marks:
        return "?"
    return "!" if "!" in marks else marks[-1]


def _word_candidates(core: str) -> list[str]:
    from playground.lexicon import load_cmudict

    core = core.strip("'")
    parts = [p for p in re.split(r"[-/]+", core) if p]
    out: list[str] = []
    for p in parts:
        runs = re.findall(r"[A-Za-z']+|\d+", p)
        for r in runs:
            if r.isdigit():
                out.append(cardinal(int(r)) if len(r) < 5 else digits(r))
            else:
                out.append(r.lower().strip("'"))
    words = " ".join(w for w in out if w)
    letters = re.sub(r"[^A-Za-z]", "", core)
    if 2 <= len(letters) <= 5 and letters.isupper() and letters == core:
        spelled = " ".join(letters.lower())
        in_dict = letters.lower() in load_cmudict()
        return [words, spelled] if in_dict else [spelled, words]
    return [words] if words else []


def _candidates(core: str, prev: str, nxt: str, month_before: bool) -> tuple[list[str], str | None]:
    """Candidates for one token, plus a unit word to put after a following scale word."""
    table, _ = _abbreviations()
    low = core.lower()
    if low in table:
        cands = list(table[low])
        if low in ("dr.", "st.") and not nxt[:1].isupper():
            cands.reverse()  # "Elm St." / "Baker Dr." -> street / drive
        if low == "no." and not nxt[:1].isdigit():
            cands.reverse()
        return cands, None
    if low in ("am", "pm") and prev[:1].isdigit():
        return [f"{low[0]} m"], None
    if low in _MONTH_ABBR and core[:1].isupper() and nxt[:1].isdigit():
        return [_MONTH_ABBR[low]], None
    if m := _RE_MONEY.match(core):
        sym, whole, cents = m.groups()
        if whole is None and cents is None:
            return [_CURRENCY[sym][1]], None
        if nxt.lower().rstrip(SENTENCE_PUNCT) in _SCALES:
            amount = decimal(f"{whole or 0}.{cents}") if cents else cardinal(int(whole.replace(",", "")))
            return [amount], _CURRENCY[sym][1]
        return money(sym, whole or "", cents), None
    if m := _RE_PERCENT.match(core):
        whole, frac = m.groups()
        num = decimal(whole + frac) if frac else cardinal(int(whole.replace(",", "")))
        return [f"{num} percent"], None
    if m := _RE_ORDINAL.match(core):
        return [ordinal(int(m.group(1)))], None
    if m := _RE_TIME.match(core):
        h, mi, ap = int(m.group(1)), int(m.group(2)), m.group(3)
        ampm = bool(ap) or nxt.lower().rstrip(SENTENCE_PUNCT) in ("am", "pm", "a.m.", "p.m.")
        cands = time_of_day(h, mi, ampm)
        if ap:
            cands = [f"{c} {ap.lower()[0]} m" for c in cands]
        return cands, None
    if m := _RE_HOUR_AMPM.match(core):
        return [f"{cardinal(int(m.group(1)))} {m.group(2).lower()[0]} m"], None
    if m := _RE_SLASH.match(core):
        a, b, y = int(m.group(1)), int(m.group(2)), m.group(3)
        dates = []
        if 1 <= a <= 12 and 1 <= b <= 31:
            dates.append(f"{MONTHS[a - 1]} {ordinal(b)}")
        if 1 <= b <= 12 and 1 <= a <= 31 and a != b:
            dates.append(f"{MONTHS[b - 1]} {ordinal(a)}")
        if y:
            yn = int(y) if len(y) == 4 else 2000 + int(y)
            return [f"{d} {year(yn)}" for d in dates] or [f"{digits(m.group(1))} slash {digits(m.group(2))}"], None
        frac = [fraction(a, b)] if b > 1 and a < 100 else []
        frac_first = nxt.lower().rstrip(SENTENCE_PUNCT) in _FRACTION_CUES or (
            prev not in _DATE_CUES and not dates)
        cands = frac + dates if frac_first else dates + frac
        return list(dict.fromkeys(cands + [f"{cardinal(a)} slash {cardinal(b)}"])), None
    if m := _RE_DECADE.match(core):
        s = m.group(1)
        base = year(int(s)) if len(s) == 4 else cardinal(int(s))
        return [_plural_year(base)], None
    if m := _RE_RANGE.match(core):
        a, b = m.groups()
        return [f"{cardinal(int(a))} to {cardinal(int(b))}"], None
    if _RE_COMMA_INT.match(core):
        return [cardinal(int(core.replace(",", "")))], None
    if m := _RE_DECIMAL.match(core):
        whole, frac = m.groups()
        cands = [decimal(core if whole else "0" + core)]
        if not whole or whole == "0":
            cands.append("point " + digits(frac))
        return cands, None
    if _RE_INT.match(core):
        return integer_candidates(core, prev, nxt, month_before), None
    if m := _RE_HASH.match(core):
        return [f"number {cardinal(int(m.group(1)))}"], None
    return _word_candidates(core), None


def verbalize(raw: str) -> list[Segment]:
    """Candidate spoken forms of a raw sentence, one segment per token; segments join with ' '."""
    toks = _ascii(raw).split()
    parts = [_split_token(t) for t in toks]
    segs: list[Segment] = []
    pending_unit: str | None = None
    for i, (_, core, trail) in enumerate(parts):
        prev = parts[i - 1][1].lower().rstrip(".") if i else ""
        nxt = parts[i + 1][1] if i + 1 < len(parts) else ""
        month_before = prev.rstrip(".") in MONTHS or prev.rstrip(".") in _MONTH_ABBR
        prev2 = parts[i - 2][1].lower().rstrip(".") if i > 1 else ""
        if prev2 in MONTHS and prev[:1].isdigit():  # "March 4, 2021": read the year as a year
            prev = "in"
        punct = _punct(trail)
        table, _ = _abbreviations()
        if core.endswith(".") and core.lower() in table and i == len(parts) - 1 and not punct:
            punct = "."  # "Main St." at the end: the period is also the full stop
        cands, unit = _candidates(core, prev, nxt, month_before) if core else ([], None)
        cands = [c for c in cands if c]
        if pending_unit and cands:
            cands = [f"{c} {pending_unit}" for c in cands]
            pending_unit = None
        pending_unit = unit or pending_unit
        if not cands:  # a bare mark ("-", "...") joins the previous word
            if punct and segs and not any(segs[-1][0].endswith(p) for p in SENTENCE_PUNCT):
                segs[-1] = [c + punct for c in segs[-1]]
            continue
        segs.append(list(dict.fromkeys(c + punct for c in cands)))
    return segs


def default_normalization(raw: str) -> str:
    """The first (context-ranked) candidate of every segment: the rule-only fallback."""
    return " ".join(seg[0] for seg in verbalize(raw))


def split_sentences(text: str) -> list[str]:
    """Split at . ? ! followed by space and a capital/digit/quote, not after abbreviations/initials."""
    _, no_split = _abbreviations()
    text = re.sub(r"[ \t]+", " ", text.strip())
    out: list[str] = []
    for block in re.split(r"\n\s*\n", text):
        toks = block.split()
        cur: list[str] = []
        for i, tok in enumerate(toks):
            cur.append(tok)
            nxt = toks[i + 1] if i + 1 < len(toks) else ""
            if not nxt:
                break
            core = tok.rstrip("\"')]}")
            if not core or core[-1] not in ".?!" or not (nxt[0].isupper() or nxt[0].isdigit() or nxt[0] in "\"'("):
                continue
            low = core.lower()
            if core[-1] == "." and (
                (low in no_split and not (low == "no." and not nxt[0].isdigit()))
                or re.fullmatch(r"[A-Za-z]\.", core)  # an initial: "J. K. Rowling"
            ):
                continue
            out.append(" ".join(cur))
            cur = []
        if cur:
            out.append(" ".join(cur))
    return [s for s in out if s.strip()]
