// Cards as cards: draws a card from the engine's card data (served by the room at
// /rooms/characters/<id>.json): its rank and suit, both ends in the character's terms (move
// name, type, speed, damage, block damage, combo points) and its rank's ability text.
// It knows no rules: it prints what the data says.
(function () {
  "use strict";
  const SUITS = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"};
  const RANKS = {T: "10", J: "J", Q: "Q", K: "K", A: "A"};
  const faces = {};      // character id -> its card data (or a promise while loading)
  let onLoaded = () => {};
  let url = "/rooms/characters/CID.json";

  function short(code) {
    if (!code) return "?";
    if (code[0] === "X") return "Joker";
    return (RANKS[code[0]] || code[0]) + (SUITS[code.slice(1)] || code.slice(1));
  }

  function load(cid) {
    if (!cid || faces[cid]) return;
    faces[cid] = fetch(url.replace("CID", encodeURIComponent(cid)))
      .then(r => r.ok ? r.json() : null)
      .then(data => { faces[cid] = data || {}; onLoaded(); })
      .catch(() => { delete faces[cid]; });
  }

  function data(cid) {
    const d = faces[cid];
    return d && !(d instanceof Promise) ? d : null;
  }

  function moveStats(m) {
    const bits = [];
    if (m.speed !== undefined) bits.push(`speed ${m.speed}`);
    if (m.damage) bits.push(`${m.damage} dmg`);
    if (m.block_damage) bits.push(`${m.block_damage} block dmg`);
    if (m.combo_points !== undefined) bits.push(`${m.combo_points} cp`);
    if (m.combo_type) bits.push(m.combo_type);
    if (m.knockdown) bits.push("knockdown");
    return bits;
  }

  function moveText(m) {
    const name = m.name ? `${m.name} (${m.type})` : m.type;
    const more = [...moveStats(m)];
    if (m.pump) more.push(`pump ${m.pump}`);
    if (m.ace_cost) more.push(`costs ${m.ace_cost} Aces`);
    return more.length ? `${name}: ${more.join(", ")}` : name;
  }

  // The card's whole text: both ends and the rank's abilities (a tooltip, the detail panel,
  // and what a screen reader hears).
  function describe(code, cid) {
    const d = data(cid);
    if (code && code[0] === "X") return "Joker: Gold Burst as a combat card, or Rewind Time face down";
    if (!code) return "a hidden card";
    if (!d || !d.ranks) return short(code);
    const ends = (d.ranks[code[0]] || []).map(moveText);
    const abilities = (d.abilities[code[0]] || []).map(a => `${a.name} (${a.timing}): ${a.text}`);
    return [`${short(code)} of ${d.name}`, ...ends, ...abilities].join(". ");
  }

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // A card element: a button (tap: its details; selectable when a choice is made on it).
  function card(code, cid, extra) {
    const attrs = Object.assign({type: "button", "data-code": code || ""}, extra || {});
    const suit = code && code[0] !== "X" ? code.slice(1) : "X";
    attrs.class = `card suit-${suit}` + (attrs.class ? " " + attrs.class : "");
    const node = el("button", attrs);
    node.title = describe(code, cid);  // the whole text on hover (and in the detail panel on tap)
    node.appendChild(el("span", {class: "corner"}, short(code)));
    const d = data(cid);
    if (code && code[0] === "X") {
      node.appendChild(el("span", {class: "end"}, "Gold Burst / Rewind"));
    } else if (d && d.ranks && code) {
      for (const m of d.ranks[code[0]] || []) {
        const end = el("span", {class: `end move-${m.type}`});
        end.appendChild(el("b", {}, m.name || m.type));
        end.appendChild(el("small", {}, [m.name ? m.type : "", ...moveStats(m)].filter(Boolean).join(" \u00b7 ")));
        node.appendChild(end);
      }
      for (const a of d.abilities[code[0]] || []) {
        node.appendChild(el("span", {class: "ability"}, "\u2605 " + a.name));
      }
    }
    return node;
  }

  // The character card: life, combo limit, innates and abilities.
  function characterBody(cid) {
    const d = data(cid);
    const box = el("div", {class: "character-card"});
    if (!d || !d.name) { box.textContent = "Loading…"; return box; }
    box.appendChild(el("p", {}, `Life ${d.life} \u00b7 combo limit ${d.combo_limit}`));
    for (const i of d.innates) {
      const p = el("p");
      p.appendChild(el("b", {}, `${i.name} (innate): `));
      p.appendChild(document.createTextNode(i.text));
      box.appendChild(p);
    }
    for (const [rank, list] of Object.entries(d.abilities)) {
      for (const a of list) {
        const p = el("p");
        p.appendChild(el("b", {}, `${RANKS[rank] || rank} \u2014 ${a.name} (${a.timing}): `));
        p.appendChild(document.createTextNode(a.text));
        box.appendChild(p);
      }
    }
    return box;
  }

  window.YomiCards = {
    short, load, data, describe, card, characterBody,
    configure(options) { url = options.url || url; onLoaded = options.onLoaded || onLoaded; },
  };
})();
