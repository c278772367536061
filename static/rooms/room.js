// The match room's client: it renders what the server sends and sends back one of the choices
// the server listed (or a picker's template filled with the selected cards, which the server's
// engine checks like any choice). It knows no rules: the server's engine decides everything.
//
// Choices are made on the cards: each choice names its cards ("keys", "zone:code"); the cards
// that some choice could still use are highlighted, the player selects them, and the choices
// made on exactly the selected cards are offered as buttons. Choices made on no card (pass,
// stop, no card) are buttons of their own.
(function () {
  "use strict";
  const root = document.getElementById("room");
  if (!root) return;
  const Cards = window.YomiCards;
  const board = document.getElementById("board");
  const choices = document.getElementById("choices");
  const tray = document.getElementById("tray");
  const handBox = document.getElementById("hand");
  const hint = document.getElementById("decision-hint");
  const title = document.getElementById("decision-title");
  const refused = document.getElementById("refused");
  const connection = document.getElementById("connection");
  const waiting = document.getElementById("waiting");
  const logBox = document.getElementById("log");
  const detail = document.getElementById("card-detail");
  let socket = null;
  let retry = 0;
  let state = null;
  let selected = [];
  let selectedFor = null;   // the decision the selection belongs to
  let lastReveal = "";
  let sent = false;
  // One-device tabletop recorder: this page holds every seat's messages and shows one seat at
  // a time; before showing another seat's hand it asks to pass the device.
  const device = root.dataset.device === "1";
  // a player of several seats (a Tag Team side of one) hears each seat's messages too: the
  // page shows the seat now deciding, without a hand-over (it is the same person)
  const multi = device || (root.dataset.seats || "").split(" ").filter(Boolean).length > 1;
  const states = {};
  let holder = null;
  let latest = null;
  const handover = document.getElementById("handover");
  const decision = document.getElementById("decision");
  const ZONES = {discard: "Your discard pile", deck: "Your deck", partner: "Your partner's hand",
                 attached: "Your cards in play", face_up: "Your face-up cards",
                 "opponent-discard": "The opponent's discard pile",
                 "opponent-hand": "The opponent's hand", other: "Other cards"};
  const DEFAULT_KINDS = ["pass", "stop", "no_card", "keep", "accept"];

  Cards.configure({url: root.dataset.cardsUrl, onLoaded: () => { if (state) render(state); }});

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function nameOf(s, seat) { return (s.names && s.names[seat]) || seatInfoOf(s, seat).name || seat; }
  function seatInfoOf(s, seat) { return s.seats.find(x => x.seat === seat) || {}; }
  function characterOf(s, seat) {
    const p = s.view && s.view.players[seat];
    const picked = seatInfoOf(s, seat).character;
    return (p && p.character) || (picked && !picked.includes(",") ? picked : null);
  }

  // ---------------------------------------------------------------- the table

  function cardRow(codes, cid, label) {
    const row = el("div", {class: "card-row", role: "group", "aria-label": label});
    for (const code of codes || []) row.appendChild(Cards.card(code, cid, {"data-zone": "table"}));
    if (!codes || !codes.length) row.appendChild(el("span", {class: "muted"}, "none"));
    return row;
  }

  function lifeBar(p, cid) {
    const d = Cards.data(cid);
    const max = Math.max((d && d.life) || p.life, p.life, 1);
    const wrap = el("span", {class: "life"});
    const meter = el("meter", {min: 0, max: max, low: Math.round(max * 0.3), high: Math.round(max * 0.6),
                               optimum: max, value: Math.max(0, p.life), "aria-label": `Life ${p.life} of ${max}`});
    wrap.appendChild(meter);
    wrap.appendChild(el("span", {class: "life-number", "data-field": "life"}, String(p.life)));
    return wrap;
  }

  function characterButton(s, seat, cid) {
    const d = Cards.data(cid);
    const b = el("button", {type: "button", class: "character-button link", "data-character": cid || ""},
                 (d && d.name) || cid || "?");
    b.setAttribute("aria-label", `${(d && d.name) || cid}: character card (life, combo limit, innate, abilities)`);
    b.addEventListener("click", () => {
      const dialog = document.getElementById("character-dialog");
      document.getElementById("character-dialog-title").textContent = `${(d && d.name) || cid} \u2014 ${nameOf(s, seat)}`;
      document.getElementById("character-dialog-body").replaceChildren(Cards.characterBody(cid));
      if (dialog.showModal) dialog.showModal(); else dialog.setAttribute("open", "");
    });
    return b;
  }

  function facts(p) {
    const bits = [`hand ${p.hand_size}`, `deck ${p.deck_size}`, `discard ${p.discard.length}`];
    if (p.knocked_down) bits.push("knocked down");
    if (p.face_down) bits.push("a card face down");
    if (p.frozen) bits.push("frozen");
    if (p.combo_points_spent) bits.push(`${p.combo_points_spent} combo points spent`);
    return bits.join(" \u00b7 ");
  }

  function renderSeat(s, seatInfo, p, acting, mine) {
    // the character in play (a Triple Threat side's lineup is no character: it has a team)
    const cid = p ? p.character : (seatInfo.character && !seatInfo.character.includes(",") ? seatInfo.character : null);
    if (cid) Cards.load(cid);
    const box = el("section", {class: "seat" + (acting ? " acting" : "") + (mine ? " mine" : " other"),
                               "data-seat": seatInfo.seat});
    const head = el("h2", {class: "seat-head"});
    head.appendChild(el("span", {class: "player-name"}, seatInfo.name));
    if (cid) head.appendChild(characterButton(s, seatInfo.seat, cid));
    if (acting) head.appendChild(el("span", {class: "badge acting-badge"}, "to act"));
    box.appendChild(head);
    if (!p) {
      box.appendChild(el("p", {class: "muted"}, seatInfo.picked ? "has picked" : "picking…"));
      return box;
    }
    const line = el("p", {class: "summary-line"});
    line.appendChild(lifeBar(p, cid));
    line.appendChild(el("span", {class: "facts", "data-field": "facts"}, facts(p)));
    box.appendChild(line);
    // the rest of the public state: folded away for the other seats (a summary line on a phone)
    const more = el("details", {class: "seat-more"});
    if (mine && window.matchMedia && !window.matchMedia("(max-width: 700px)").matches) more.open = true;
    more.appendChild(el("summary", {}, mine ? "Your piles and cards in play" : "Discard pile and cards in play"));
    const add = (label, field, node) => {
      const sec = el("div", {class: "zone", "data-field": field});
      sec.appendChild(el("h3", {}, label));
      sec.appendChild(node);
      more.appendChild(sec);
    };
    add("Discard pile", "discard", cardRow([...p.discard].reverse(), cid, "Discard pile, top first"));
    if (p.attached) add("Attached", "attached", cardRow(p.attached, cid, "Attached"));
    if (p.face_up) add("Face up", "face-up", cardRow(p.face_up, cid, "Face up"));
    if (p.banished) add("Banished", "banished", cardRow(p.banished, cid, "Banished"));
    if (p.ongoing) add("Ongoing", "ongoing", el("p", {}, p.ongoing.map(e => e.name + (e.card ? ` (${Cards.short(e.card)})` : "")).join(", ")));
    if (p.team) add("Team", "team", el("p", {}, p.team.characters.map(c => p.team.defeated.includes(c) ? `${c} (out)` : c).join(", ")));
    if (p.deck_top) add("Top of your deck", "deck-top", cardRow(p.deck_top, cid, "Top of your deck"));
    if (p.hand && !mine) add(state && state.you === seatInfo.seat ? "Your hand" : "Hand", "hand", cardRow(p.hand, cid, "Hand"));
    box.appendChild(more);
    return box;
  }

  function renderReveal(s) {
    const view = s.view;
    const shown = Object.entries(view.players).filter(([, p]) => p.combat_card || p.assist);
    const key = shown.map(([seat, p]) => seat + p.combat_card).join("|") + view.turn;
    if (!shown.length) { lastReveal = ""; return null; }
    const box = el("section", {class: "reveal" + (key !== lastReveal ? " fresh" : ""), id: "reveal",
                               "aria-label": `Revealed combat cards, turn ${view.turn}`});
    lastReveal = key;
    for (const [seat, p] of shown) {
      const fig = el("figure", {"data-seat": seat});
      if (p.combat_card) fig.appendChild(Cards.card(p.combat_card, p.character, {"data-zone": "combat", "data-field": "combat-card"}));
      if (p.assist) fig.appendChild(Cards.card(p.assist, p.character, {"data-zone": "assist"}));
      fig.appendChild(el("figcaption", {}, nameOf(s, seat)));
      box.appendChild(fig);
    }
    return box;
  }

  function renderLog(s) {
    logBox.replaceChildren();
    const turns = s.log || [];
    if (!turns.length) {
      logBox.appendChild(el("li", {class: "muted"}, s.view ? "Nothing yet: the first turn is under way." : "The game has not started."));
      return;
    }
    for (const t of [...turns].reverse()) {
      const li = el("li", {"data-turn": t.turn});
      li.appendChild(el("h3", {}, t.title));
      const ul = el("ul");
      for (const line of t.lines) ul.appendChild(el("li", {class: `log-${line.kind}`}, line.text));
      li.appendChild(ul);
      logBox.appendChild(li);
    }
  }

  // ---------------------------------------------------------------- choices on cards

  function keysOf(c) { return c.keys || []; }
  function sameSet(a, b) { return a.length === b.length && a.every(k => b.includes(k)); }
  function pickerField(p, key) {
    return Object.entries(p.fields).find(([, f]) => f.pool.includes(key));
  }
  function pickerFits(p, keys, complete) {
    const counts = {};
    for (const k of keys) {
      const f = pickerField(p, k);
      if (!f) return false;
      counts[f[0]] = (counts[f[0]] || 0) + 1;
    }
    return Object.entries(p.fields).every(([name, f]) =>
      (counts[name] || 0) <= f.max && (!complete || (counts[name] || 0) >= f.min));
  }
  function pickerRoom(p, keys) {
    // may the selection grow within this picker?
    return pickerFits(p, keys, false) && Object.entries(p.fields).some(([name, f]) =>
      keys.filter(k => pickerField(p, k)[0] === name).length < f.max);
  }
  function pickerAction(p, keys) {
    const action = Object.assign({}, p.template);
    for (const [name, f] of Object.entries(p.fields)) {
      action[name] = f.pool.filter(k => keys.includes(k) && pickerField(p, k)[0] === name)
        .map(k => k.split(":")[1]);
    }
    return action;
  }

  function selectable(s) {
    const out = new Set(selected);
    for (const c of s.legal) {
      const ks = keysOf(c);
      if (ks.length && selected.every(k => ks.includes(k))) ks.forEach(k => out.add(k));
    }
    for (const p of s.pickers || []) {
      if (pickerRoom(p, selected)) Object.values(p.fields).forEach(f => f.pool.forEach(k => out.add(k)));
    }
    return out;
  }

  function offered(s) {
    const out = [];
    for (const c of s.legal) {
      const ks = keysOf(c);
      if (!ks.length && !selected.length) out.push({label: c.label, action: c.action, plain: true});
      else if (ks.length && sameSet(ks, selected)) out.push({label: c.label, action: c.action});
    }
    for (const p of s.pickers || []) {
      if (pickerFits(p, selected, true)) {
        const cards = selected.map(k => Cards.short(k.split(":")[1])).join(" ");
        out.push({label: `${p.label}: ${cards || "no cards"}`, action: pickerAction(p, selected), picker: true});
      }
    }
    return out;
  }

  function choose(s, action) {
    sent = true;
    for (const other of root.querySelectorAll("#choices button, #hand button.legal, #tray button.legal")) other.disabled = true;
    const message = {type: "choose", action: action, decision: s.decision};
    if (s.deciding_for) message.seat = s.deciding_for;
    selected = [];
    send(message);
  }

  function toggle(key) {
    const i = selected.indexOf(key);
    if (i >= 0) selected.splice(i, 1); else selected.push(key);
    renderDecision(state);
  }

  function showDetail(code, cid) {
    detail.hidden = false;
    detail.textContent = Cards.describe(code, cid);
  }

  function myCharacter(s) { return s.you ? characterOf(s, s.you) : null; }
  function ownerOf(s, zone) {
    if (zone === "partner" || zone.startsWith("opponent")) {
      const others = Object.entries((s.view && s.view.players) || {}).filter(([seat]) => seat !== s.you);
      const team = s.view.players[s.you] && s.view.players[s.you].team;
      const found = others.find(([, p]) => zone === "partner"
        ? team && p.team && p.team.characters.join() === team.characters.join()
        : !(team && p.team && p.team.characters.join() === team.characters.join()));
      return found ? found[1].character : myCharacter(s);
    }
    return myCharacter(s);
  }

  let fresh = new Set();  // the cards selectable with nothing selected
  function cardButton(s, code, cid, key, can) {
    const b = Cards.card(code, cid, {"data-key": key, "data-zone": key.split(":")[0]});
    if (can.has(key)) {
      b.classList.add("legal");
      b.setAttribute("aria-pressed", selected.includes(key) ? "true" : "false");
    }
    b.addEventListener("click", () => {
      showDetail(code, cid);
      if (sent) return;
      if (b.classList.contains("legal")) toggle(key);
      else if (fresh.has(key)) { selected = [key]; renderDecision(state); }  // start again on it
    });
    return b;
  }

  function renderHand(s, can) {
    handBox.replaceChildren();
    const me = s.you && s.view && s.view.players[s.you];
    if (!me || !me.hand) { handBox.hidden = true; return; }
    handBox.hidden = false;
    const cid = me.character;
    handBox.appendChild(el("h3", {class: "visually-hidden"}, "Your hand"));
    const row = el("div", {class: "card-row", "data-field": "your-hand"});
    me.hand.forEach(code => row.appendChild(cardButton(s, code, cid, `hand:${code}`, can)));
    if (!me.hand.length) row.appendChild(el("span", {class: "muted"}, "Your hand is empty."));
    handBox.appendChild(row);
  }

  function renderTray(s, can) {
    tray.replaceChildren();
    const zones = {};
    for (const key of new Set([...can, ...fresh])) {
      const [zone, code] = key.split(":");
      if (zone === "hand") continue;
      (zones[zone] = zones[zone] || []).push(code);
    }
    for (const [zone, codes] of Object.entries(zones)) {
      const sec = el("div", {class: "zone", "data-zone": zone});
      sec.appendChild(el("h3", {}, ZONES[zone] || zone));
      const row = el("div", {class: "card-row"});
      const cid = ownerOf(s, zone);
      codes.forEach(code => row.appendChild(cardButton(s, code, cid, `${zone}:${code}`, can)));
      sec.appendChild(row);
      tray.appendChild(sec);
    }
  }

  function renderDecision(s) {
    choices.replaceChildren();
    hint.textContent = "";
    const deciding = s.legal && (s.legal.length || (s.pickers && s.pickers.length));
    if (!deciding) {
      selected = [];
      renderHand(s, new Set());
      tray.replaceChildren();
      return;
    }
    if (selectedFor !== s.decision) { selected = []; selectedFor = s.decision; sent = false; }
    const can = selectable(s);
    const kept = selected;
    selected = [];
    fresh = selectable(s);
    selected = kept;
    renderHand(s, can);
    renderTray(s, can);
    const offers = offered(s);
    offers.forEach((o, i) => {
      const b = el("button", {type: "button", class: "choice" + (o.plain ? " plain" : " confirm"),
                              "data-index": i, "data-kind": o.action.action}, o.label);
      if (o.action.move) b.dataset.move = o.action.move;
      b.addEventListener("click", () => choose(s, o.action));
      if (sent) b.disabled = true;
      choices.appendChild(b);
    });
    if (selected.length) {
      const clear = el("button", {type: "button", class: "clear link", id: "clear-selection"}, "Clear selection");
      clear.addEventListener("click", () => { selected = []; renderDecision(s); });
      choices.appendChild(clear);
    }
    // a picker says what it takes: how many cards, from where
    for (const p of s.pickers || []) {
      const parts = Object.values(p.fields).map(f => {
        const zones = [...new Set(f.pool.map(k => k.split(":")[0]))].map(z => ZONES[z] || "your hand");
        return `${f.min === f.max ? f.max : f.min + "\u2013" + f.max} of the highlighted cards of ${zones.join(" or ").toLowerCase()}`;
      });
      tray.prepend(el("p", {class: "picker-hint"}, `${p.label}: select ${parts.join(", then ")}, then confirm.`));
    }
    const cardsLeft = [...can].filter(k => !selected.includes(k)).length;
    if (!selected.length && cardsLeft) hint.textContent = "Select a highlighted card to see what you can do with it.";
    else if (selected.length && !offers.length) hint.textContent = "Select more cards: no choice uses exactly these yet.";
    else if (selected.length) hint.textContent = `Selected: ${selected.map(k => Cards.short(k.split(":")[1])).join(" ")}. Confirm one of the choices below.`;
  }

  // ---------------------------------------------------------------- the page

  function waitingText(s) {
    if (s.status === "finished" || !s.acting || !s.acting.length) return "";
    const others = s.acting.filter(seat => seat !== s.you && seat !== s.deciding_for);
    const since = s.since ? Math.max(0, Math.floor(Date.now() / 1000 - s.since)) : null;
    const time = since === null ? "" : ` \u00b7 ${since < 60 ? since + " s" : Math.floor(since / 60) + " min " + (since % 60) + " s"}`;
    if (s.legal && (s.legal.length || (s.pickers && s.pickers.length))) {
      return (others.length ? `Your decision (${others.map(x => nameOf(s, x)).join(" and ")} is deciding too)` : "Your decision") + time;
    }
    if (s.status === "picking") return `Waiting for ${s.acting.map(x => seatInfoOf(s, x).name || x).join(" and ")} to pick` + time;
    return `Waiting for ${s.acting.map(x => nameOf(s, x)).join(" and ")}` + time;
  }

  function render(s) {
    state = s;
    root.dataset.status = s.status;
    root.dataset.version = s.version;
    root.dataset.turn = s.view ? s.view.turn : "";
    board.replaceChildren();
    const view = s.view;
    if (view) {
      board.appendChild(el("p", {class: "muted", id: "turn"},
        `Turn ${view.turn} \u00b7 step ${view.step} \u00b7 initiative ${nameOf(s, view.initiative)}`));
    }
    // the other seats first (each a summary line), then the reveal, then this seat
    const ordered = [...s.seats].sort((a, b) => (a.seat === s.you) - (b.seat === s.you));
    for (const seatInfo of ordered) {
      if (seatInfo.seat === s.you) continue;
      board.appendChild(renderSeat(s, seatInfo, view ? view.players[seatInfo.seat] : null,
                                   s.acting.includes(seatInfo.seat), false));
    }
    if (view) { const r = renderReveal(s); if (r) board.appendChild(r); }
    if (s.you) {
      const mine = s.seats.find(x => x.seat === s.you);
      if (mine) board.appendChild(renderSeat(s, mine, view ? view.players[s.you] : null, s.acting.includes(s.you), true));
    }
    renderLog(s);
    waiting.textContent = waitingText(s);
    choices.replaceChildren();
    tray.replaceChildren();
    if (s.picks_pending) {
      // a set's character picks are still hidden or missing: the room waits for them
      title.textContent = "Waiting for the set's character picks";
      renderHand(s, new Set());
      choices.appendChild(el("p", {id: "picks-pending", role: "status"},
        `The game starts with the characters picked on the set's page: ${s.picks_pending}.`));
    } else if (s.characters && s.team_size > 1) {
      // a team mode: the whole lineup at once, in the order it is declared
      title.textContent = `Pick your ${s.team_size} characters, in order (hidden until both sides have picked)`;
      renderHand(s, new Set());
      const form = el("form", {id: "lineup"});
      const selects = [];
      for (let i = 0; i < s.team_size; i++) {
        const label = el("label", {}, `Character ${i + 1} `);
        const select = el("select", {name: `character-${i}`, "data-slot": i});
        for (const [id, name] of Object.entries(s.characters)) select.appendChild(el("option", {value: id}, name));
        select.selectedIndex = i;
        selects.push(select);
        label.appendChild(select);
        form.appendChild(label);
      }
      form.appendChild(el("button", {type: "submit", id: "pick-lineup"}, "Pick this lineup"));
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        send({type: "pick", character: selects.map(x => x.value)});
      });
      choices.appendChild(form);
    } else if (s.characters) {
      title.textContent = "Pick your character (hidden until both have picked)";
      renderHand(s, new Set());
      for (const [id, name] of Object.entries(s.characters)) {
        const b = el("button", {type: "button", class: "pick", "data-character": id}, name);
        b.addEventListener("click", () => send({type: "pick", character: id}));
        choices.appendChild(b);
      }
    } else if (s.legal && (s.legal.length || (s.pickers && s.pickers.length))) {
      title.textContent = s.deciding_for
        ? `Your decision for ${nameOf(s, s.deciding_for)} (card text gave you control of it)`
        : `Your decision \u00b7 turn ${view ? view.turn : ""}, ${view ? view.step : ""}`;
      renderDecision(s);
    } else if (s.controlled_by) {
      // card text (Mistress's Command) gave the other player this seat's decisions
      title.textContent = `${nameOf(s, s.controlled_by.seat)} makes your decisions until this ` +
        "turn's combat reveal (card text gave them control)";
      renderDecision(s);
    } else if (s.status !== "finished") {
      title.textContent = (s.acting.length ? `Waiting for ${s.acting.map(x => nameOf(s, x)).join(" and ")}` : "") +
        (view ? ` \u00b7 turn ${view.turn}, ${view.step}` : "");
      renderDecision(s);
    } else {
      title.textContent = "";
      renderDecision(s);
    }
    const finished = document.getElementById("finished");
    finished.hidden = s.status !== "finished";
    if (s.status === "finished" && s.outcome) {
      const o = s.outcome;
      document.getElementById("outcome").textContent =
        (o.winner ? `${nameOf(s, o.winner)} wins` : "A draw") + ` (${o.how}, turn ${o.turns}).` +
        (o.life ? " Life: " + Object.entries(o.life).map(([seat, life]) => `${nameOf(s, seat)} ${life}`).join(", ") + "." : "") +
        (o.survival ? ` Survival score: ${o.survival.score} (beaten: ${o.survival.beaten.join(", ") || "none"}).` : "") +
        (s.seed !== null && s.seed !== undefined ? ` Seed ${s.seed}.` : " Draws as recorded.") +
        (s.result_problem ? ` The result was not sent to the match: ${s.result_problem}` : "");
      title.textContent = o.winner ? `${nameOf(s, o.winner)} wins` : "A draw";
      document.getElementById("replay-link").href = s.replay_url;
      const ml = document.getElementById("match-link");
      ml.replaceChildren();
      if (s.match_url) ml.appendChild(el("a", {href: s.match_url, id: "match-result-link"},
        s.match_link_text || "See the match"));
    }
  }

  // Keyboard: the common picks without the mouse.
  document.addEventListener("keydown", (e) => {
    if (!state || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.target.tagName === "TEXTAREA")) return;
    const key = e.key.toLowerCase();
    const legalCards = [...root.querySelectorAll("#hand button.legal, #tray button.legal")];
    const offers = [...choices.querySelectorAll("button.choice:not([disabled])")];
    const moves = {a: "attack", t: "throw", b: "block", d: "dodge"};
    let done = true;
    if (/^[1-9]$/.test(key) && legalCards[Number(key) - 1]) legalCards[Number(key) - 1].click();
    else if (moves[key]) {
      const b = offers.find(x => x.dataset.move === moves[key]);
      if (b) b.click(); else done = false;
    } else if (key === "enter" && e.target === document.body) {
      const confirms = offers.filter(x => x.classList.contains("confirm"));
      if (confirms.length === 1) confirms[0].click(); else done = false;
    } else if (key === "p") {
      const b = DEFAULT_KINDS.map(k => offers.find(x => x.dataset.kind === k)).find(Boolean);
      if (b) b.click(); else done = false;
    } else if (key === "escape") {
      selected = [];
      detail.hidden = true;
      if (state) renderDecision(state);
    } else done = false;
    if (done) e.preventDefault();
  });

  // The decision clock: a countdown to the server's deadline; when it ends, ask the server to
  // make the default choice (it checks its own clock, so asking early changes nothing). The
  // waiting line's timer ticks with it.
  let clockAsked = 0;
  setInterval(() => {
    if (state) waiting.textContent = waitingText(state);
    const clock = document.getElementById("clock");
    if (!state || !state.clock || state.status !== "playing") { clock.hidden = true; return; }
    const left = Math.max(0, state.clock.deadline - Date.now() / 1000);
    clock.hidden = false;
    clock.textContent = `Clock: ${Math.ceil(left)} s for this decision`;
    // spectators only listen (the server refuses whatever they send): a player's page asks
    if (left <= 0 && state.you && Date.now() - clockAsked > 1000) {
      clockAsked = Date.now();
      send({type: "clock"});
    }
  }, 1000);

  function deviceRender() {
    const ref = latest;
    if (!ref) return;
    const ready = (seat) => {
      const st = states[seat];
      return st && st.version === ref.version && st.status === ref.status &&
        (st.characters || (st.legal && (st.legal.length || (st.pickers && st.pickers.length))));
    };
    const next = ref.status === "finished" ? holder : ref.acting.find(ready);
    if (!device) {
      holder = next || holder || ref.you;
      render(states[holder] || ref);
      return;
    }
    if (!next || next === holder || holder === null && ref.status === "finished") {
      handover.hidden = true;
      board.hidden = false;
      decision.hidden = false;
      render(states[next || holder] || ref);
      root.dataset.holder = holder || "";
      return;
    }
    // another seat decides next: hide everything of the holder's view, then hand over
    const name = (ref.seats.find(x => x.seat === next) || {}).name || next;
    board.replaceChildren();
    board.hidden = true;
    decision.hidden = true;
    state = ref;
    root.dataset.status = ref.status;
    root.dataset.version = ref.version;
    root.dataset.holder = "";
    handover.hidden = false;
    document.getElementById("handover-title").textContent = `Pass the device to ${name} (${next})`;
    const button = document.getElementById("handover-ready");
    button.textContent = `I am ${name}: show ${next}'s decision`;
    button.dataset.seat = next;
    button.onclick = () => { holder = next; root.dataset.holder = next; deviceRender(); };
  }

  function send(message) {
    refused.hidden = true;
    if (multi && holder && !message.seat && message.type !== "clock") message.seat = holder;
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}${root.dataset.wsPath}`);
    socket.addEventListener("open", () => { retry = 0; connection.textContent = "Connected"; });
    socket.addEventListener("message", (e) => {
      const m = JSON.parse(e.data);
      if (m.type === "state") sent = false;
      if (m.type === "state" && multi) {
        states[m.you] = m;
        latest = m;
        deviceRender();
      } else if (m.type === "state") render(m);
      else if (m.type === "refused") {
        sent = false;
        selected = [];  // choose again from scratch
        refused.textContent = `Refused: ${m.reason}`;
        refused.hidden = false;
        if (multi) deviceRender();
        else if (state) render(state);  // the choices again
      }
    });
    socket.addEventListener("close", () => {
      // Reconnect: the server sends the current state on connect, so the game resumes there.
      connection.textContent = "Disconnected; reconnecting…";
      root.dataset.status = "reconnecting";
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 250 * 2 ** retry);
    });
  }
  connect();
})();
