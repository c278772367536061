// The match room's client: it renders what the server sends and sends back one of the choices
// the server listed. It knows no rules: the server's engine decides everything.
(function () {
  "use strict";
  const root = document.getElementById("room");
  if (!root) return;
  const board = document.getElementById("board");
  const choices = document.getElementById("choices");
  const title = document.getElementById("decision-title");
  const refused = document.getElementById("refused");
  const connection = document.getElementById("connection");
  let socket = null;
  let retry = 0;
  let state = null;
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

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function cards(list) { return (list && list.length) ? list.join(" ") : "—"; }

  function renderSeat(seatInfo, p, acting) {
    const box = el("section", {class: "seat" + (acting ? " acting" : ""), "data-seat": seatInfo.seat});
    box.appendChild(el("h2", {}, `${seatInfo.seat} · ${seatInfo.name}` +
      (p ? ` · ${p.character}` : (seatInfo.character ? ` · ${seatInfo.character}` : ""))));
    if (!p) {
      box.appendChild(el("p", {class: "muted"}, seatInfo.picked ? "has picked" : "picking…"));
      return box;
    }
    const dl = el("dl");
    const rows = [
      ["Life", p.life], ["Hand", p.hand_size], ["Deck", p.deck_size],
      ["Discard", cards(p.discard)], ["Knocked down", p.knocked_down ? "yes" : "no"],
      ["Combo points spent", p.combo_points_spent],
    ];
    if (p.combat_card) rows.push(["Combat card", p.combat_card]);
    if (p.face_down) rows.push(["Face-down card", "yes"]);
    if (p.attached) rows.push(["Attached", cards(p.attached)]);
    if (p.ongoing) rows.push(["Ongoing", p.ongoing.map(e => e.name + (e.card ? ` (${e.card})` : "")).join(", ")]);
    if (p.banished) rows.push(["Banished", cards(p.banished)]);
    if (p.frozen) rows.push(["Frozen", "yes"]);
    if (p.team) rows.push(["Team", p.team.characters.map(c => p.team.defeated.includes(c) ? `${c} (out)` : c).join(", ")]);
    if (p.hand) rows.push([state && state.you === seatInfo.seat ? "Your hand" : "Hand", cards(p.hand)]);
    for (const [k, v] of rows) {
      dl.appendChild(el("dt", {}, k));
      dl.appendChild(el("dd", {"data-field": k.toLowerCase().replace(/ /g, "-")}, String(v)));
    }
    box.appendChild(dl);
    return box;
  }

  function render(s) {
    state = s;
    root.dataset.status = s.status;
    root.dataset.version = s.version;
    board.replaceChildren();
    const view = s.view;
    if (view) {
      board.appendChild(el("p", {class: "muted", id: "turn"},
        `Turn ${view.turn} · step ${view.step} · initiative ${view.initiative}`));
    }
    for (const seatInfo of s.seats) {
      board.appendChild(renderSeat(seatInfo, view ? view.players[seatInfo.seat] : null,
                                   s.acting.includes(seatInfo.seat)));
    }
    choices.replaceChildren();
    if (s.picks_pending) {
      // a set's character picks are still hidden or missing: the room waits for them
      title.textContent = "Waiting for the set's character picks";
      choices.appendChild(el("p", {id: "picks-pending", role: "status"},
        `The game starts with the characters picked on the set's page: ${s.picks_pending}.`));
    } else if (s.characters && s.team_size > 1) {
      // a team mode: the whole lineup at once, in the order it is declared
      title.textContent = `Pick your ${s.team_size} characters, in order (hidden until both sides have picked)`;
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
      for (const [id, name] of Object.entries(s.characters)) {
        const b = el("button", {type: "button", class: "pick", "data-character": id}, name);
        b.addEventListener("click", () => send({type: "pick", character: id}));
        choices.appendChild(b);
      }
    } else if (s.legal && s.legal.length) {
      title.textContent = s.deciding_for
        ? `Your decision for ${s.deciding_for} (card text gave you control of it)` : "Your decision";
      s.legal.forEach((choice, i) => {
        const b = el("button", {type: "button", class: "choice", "data-index": i,
                                "data-kind": choice.action.action}, choice.label);
        b.addEventListener("click", () => {
          for (const other of choices.querySelectorAll("button")) other.disabled = true;
          const message = {type: "choose", action: choice.action, decision: s.decision};
          if (s.deciding_for) message.seat = s.deciding_for;
          send(message);
        });
        choices.appendChild(b);
      });
    } else if (s.controlled_by) {
      // card text (Mistress's Command) gave the other player this seat's decisions
      title.textContent = `${s.controlled_by.character}'s player (${s.controlled_by.seat}) ` +
        "makes your decisions until this turn's combat reveal (card text gave them control)";
    } else if (s.status !== "finished") {
      title.textContent = s.acting.length ? `Waiting for ${s.acting.join(" and ")}` : "";
    } else {
      title.textContent = "";
    }
    const finished = document.getElementById("finished");
    finished.hidden = s.status !== "finished";
    if (s.status === "finished" && s.outcome) {
      const o = s.outcome;
      document.getElementById("outcome").textContent =
        (o.winner ? `${o.winner} wins` : "A draw") + ` (${o.how}, turn ${o.turns}).` +
        (o.survival ? ` Survival score: ${o.survival.score} (beaten: ${o.survival.beaten.join(", ") || "none"}).` : "") +
        (s.seed !== null && s.seed !== undefined ? ` Seed ${s.seed}.` : " Draws as recorded.") +
        (s.result_problem ? ` The result was not sent to the match: ${s.result_problem}` : "");
      document.getElementById("replay-link").href = s.replay_url;
      const ml = document.getElementById("match-link");
      ml.replaceChildren();
      if (s.match_url) ml.appendChild(el("a", {href: s.match_url, id: "match-result-link"},
        s.mode === "training" || s.mode === "survival" ? "See your solo run" : "See the match's verified result"));
    }
  }

  // The decision clock: a countdown to the server's deadline; when it ends, ask the server to
  // make the default choice (it checks its own clock, so asking early changes nothing).
  let clockAsked = 0;
  setInterval(() => {
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
  }, 250);

  function deviceRender() {
    const ref = latest;
    if (!ref) return;
    const ready = (seat) => {
      const st = states[seat];
      return st && st.version === ref.version && st.status === ref.status &&
        (st.characters || (st.legal && st.legal.length));
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
      if (m.type === "state" && multi) {
        states[m.you] = m;
        latest = m;
        deviceRender();
      } else if (m.type === "state") render(m);
      else if (m.type === "refused") {
        refused.textContent = `Refused: ${m.reason}`;
        refused.hidden = false;
        if (multi) deviceRender();
        else if (state) render(state);  // the buttons again
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
