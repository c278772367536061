// The replay viewer: steps through the frames the server computed (both hands shown).
// Keyboard: arrows one event, Page Up/Down one turn, Home/End; #turn-N links to a turn.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const frames = data.frames;
  const board = document.getElementById("board");
  let at = 0;

  function cards(list) { return (list && list.length) ? list.join(" ") : "—"; }

  function show(i) {
    at = Math.max(0, Math.min(frames.length - 1, i));
    const f = frames[at];
    document.getElementById("position").textContent =
      `Event ${at} of ${frames.length - 1} · turn ${f.turn} · step ${f.step}`;
    document.getElementById("event").textContent = f.event
      ? `${f.event.player}: ${f.event.text}` : "Start of the game";
    const link = document.getElementById("turn-link");
    link.href = `#turn-${f.turn}`;
    board.replaceChildren();
    for (const [seat, p] of Object.entries(f.board.players)) {
      const box = document.createElement("section");
      box.className = "seat";
      box.dataset.seat = seat;
      const rows = [["Character", p.character], ["Life", p.life], ["Hand", cards(p.hand)],
                    ["Deck", p.deck_size], ["Discard", cards(p.discard)],
                    ["Knocked down", p.knocked_down ? "yes" : "no"],
                    ["Combo points spent", p.combo_points_spent]];
      if (p.combat_card) rows.push(["Combat card", p.combat_card]);
      if (p.attached) rows.push(["Attached", cards(p.attached)]);
      if (p.ongoing) rows.push(["Ongoing", p.ongoing.map(e => e.name).join(", ")]);
      if (p.banished) rows.push(["Banished", cards(p.banished)]);
      const h = document.createElement("h2");
      h.textContent = seat;
      box.appendChild(h);
      const dl = document.createElement("dl");
      for (const [k, v] of rows) {
        const dt = document.createElement("dt"); dt.textContent = k;
        const dd = document.createElement("dd"); dd.textContent = String(v);
        dd.dataset.field = k.toLowerCase().replace(/ /g, "-");
        dl.append(dt, dd);
      }
      box.appendChild(dl);
      board.appendChild(box);
    }
  }

  function turnStart(turn) {
    const i = frames.findIndex(f => f.turn >= turn);
    return i < 0 ? frames.length - 1 : i;
  }

  function fromHash() {
    const m = /^#turn-(\d+)$/.exec(location.hash);
    show(m ? turnStart(Number(m[1])) : 0);
  }

  document.getElementById("first").onclick = () => show(0);
  document.getElementById("last").onclick = () => show(frames.length - 1);
  document.getElementById("prev").onclick = () => show(at - 1);
  document.getElementById("next").onclick = () => show(at + 1);
  document.getElementById("next-turn").onclick = () => show(turnStart(frames[at].turn + 1));
  document.getElementById("prev-turn").onclick = () => show(turnStart(Math.max(0, frames[at].turn - 1)));
  document.addEventListener("keydown", (e) => {
    const keys = {ArrowRight: () => show(at + 1), ArrowLeft: () => show(at - 1),
                  PageDown: () => show(turnStart(frames[at].turn + 1)),
                  PageUp: () => show(turnStart(Math.max(0, frames[at].turn - 1))),
                  Home: () => show(0), End: () => show(frames.length - 1)};
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
