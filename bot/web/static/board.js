// The scoreboard: lays out what the bot sends (bot/core/scoreboard.py) and nothing more.
// Every number and word comes from the server; names go in as text, never as markup, each
// kept apart (<bdi>) so an Arabic or Hebrew name never reorders what stands beside it.
"use strict";

const COLOURS = ["#2a6df4", "#e4572e", "#17a398", "#f3a712", "#8e44ad", "#c0392b",
                 "#2e86de", "#27ae60", "#d35400", "#7f8c8d"];
const SVG = "http://www.w3.org/2000/svg";
const WON = "★", FOUL = "✕";  // marks in the history, said in words under it
const token = location.pathname.split("/")[2] || "";
const tv = new URLSearchParams(location.search).has("tv");
const $ = (id) => document.getElementById(id);
let words = {};
let showingMore = false;
let open = true;  // the game shown is live (else finished: the page says so)

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function named(text) {
  return el("bdi", text);
}

function signClass(text) {
  const t = String(text).trim();
  return t.startsWith("-") ? "down" : t.startsWith("+") ? "up" : "";
}

function renderStandings(game) {
  const table = $("standings");
  table.replaceChildren();
  table.style.setProperty("--rows", String(game.columns.length));  // the TV's type size
  const head = el("tr");
  const results = game.columns.some((c) => c.result !== undefined);
  head.append(el("th", words.standings), el("th", words.total));
  if (results) head.append(el("th", words.result));
  const currencies = Object.keys(game.money || {});
  for (const c of currencies) head.append(el("th", c || "¤"));
  table.append(head);
  // in the game's own order of places (the server ranks; ties share a place)
  const order = game.columns.map((c, i) => i)
    .sort((a, b) => (game.columns[a].place || 0) - (game.columns[b].place || 0)
                    || game.columns[b].value - game.columns[a].value);
  for (const i of order) {
    const column = game.columns[i];
    const row = el("tr");
    const name = el("td", null, "name");
    if (column.place) name.append(document.createTextNode(`${column.place}.\u00a0`));  // kept with the name
    name.append(named(column.legend));  // a side with its players: A: asha+chetan
    row.append(name, el("td", column.total, "total " + signClass(column.total)));
    if (results) row.append(el("td", column.result || "", signClass(column.result || "")));
    for (const c of currencies) {
      const amount = (game.money[c] || {})[column.label];
      row.append(el("td", amount === undefined ? "" : amount));
    }
    table.append(row);
  }
}

// Whether a word of `node` runs over two lines (a name split in two)
function splits(node) {
  const walk = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let text = walk.nextNode(); text; text = walk.nextNode()) {
    for (const word of text.data.matchAll(/\S+/g)) {
      const range = document.createRange();
      range.setStart(text, word.index);
      range.setEnd(text, word.index + word[0].length);
      if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) return true;
    }
  }
  return false;
}

// On a TV, the standings' type as large as the screen allows, but smaller (never below
// 32 px) where a name would be split or the screen overflow
function fitStandings() {
  if (!tv) return;
  const table = $("standings");
  table.style.removeProperty("--size");
  const cell = table.querySelector("td");
  if (!cell) return;
  let size = parseFloat(getComputedStyle(cell).fontSize);
  const names = [...table.querySelectorAll("td.name")];
  while (size > 32 && (names.some(splits)
                       || document.documentElement.scrollHeight > innerHeight + 1)) {
    size = Math.max(32, size - 4);
    table.style.setProperty("--size", `${size}px`);
  }
}

let charted = null;  // the game the chart shows: drawn again when the screen changes size

function svg(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function renderChart(game) {
  charted = game;
  const figure = $("chart");
  figure.replaceChildren();
  const lines = game.running || [];
  const xs = game.numbers || [];
  if (xs.length < 2) return;
  const legend = el("div", null, "legend");
  game.columns.forEach((column, i) => {
    const item = el("span");
    item.append(named(column.legend), document.createTextNode(` ${column.total}`));
    item.style.setProperty("--swatch", COLOURS[i % COLOURS.length]);
    legend.append(item);
  });
  figure.append(legend);
  // drawn at the size it is shown, so that its type is as large as the page's own: on a TV
  // the height its place on the screen leaves, less the legend's
  const width = Math.max(240, Math.round(figure.clientWidth || 600));
  const room = tv ? figure.clientHeight - legend.offsetHeight - 8 : 0;
  const height = Math.round(tv ? Math.max(240, room)
                                : Math.max(180, Math.min(width * 0.6, 320)));
  const font = tv ? 32 : 12;
  let low = 0, high = 0;
  for (const line of lines) for (const v of line) { low = Math.min(low, v); high = Math.max(high, v); }
  if (game.goal) { low = Math.min(low, game.goal.value); high = Math.max(high, game.goal.value); }
  if (high === low) high = low + 1;
  const pad = Math.ceil(font * 0.62 * Math.max(String(low).length, String(high).length, 1)) + 10;
  const top = font, bottom = height - 1.8 * font;
  const x = (i) => pad + (width - pad - font) * (i / (xs.length - 1));
  const y = (v) => bottom - (bottom - top) * ((v - low) / (high - low));
  const chart = svg("svg", {viewBox: `0 0 ${width} ${height}`, role: "img",
                            "aria-label": words.chart});
  chart.style.fontSize = `${font}px`;
  // the axes: the value axis on the left, the hands along the bottom, and zero marked
  chart.append(svg("line", {class: "axis", x1: pad, x2: pad, y1: top, y2: bottom}),
               svg("line", {class: "axis", x1: pad, x2: width - font, y1: bottom, y2: bottom}),
               svg("line", {class: "zero", x1: pad, x2: width - font, y1: y(0), y2: y(0)}));
  if (game.goal) {
    chart.append(svg("line", {class: "goal", x1: pad, x2: width - font,
                              y1: y(game.goal.value), y2: y(game.goal.value)}));
  }
  const marks = [[high, y(high)], [0, y(0)], [low, y(low)]]
    .filter(([v], i, all) => all.findIndex(([w]) => w === v) === i);
  let last = -Infinity;
  for (const [value, at] of marks) {  // top to bottom, none over another
    if (at - last < font) continue;
    last = at;
    chart.append(svg("text", {x: pad - 6, y: at + font / 3, "text-anchor": "end"}, value));
  }
  chart.append(svg("text", {x: pad, y: height - font / 3, "text-anchor": "start"}, xs[0]),
               svg("text", {x: width - font, y: height - font / 3, "text-anchor": "end"},
                   `${game.hand_word} ${xs[xs.length - 1]}`));
  lines.forEach((line, i) => {
    chart.append(svg("polyline", {
      fill: "none", stroke: COLOURS[i % COLOURS.length], "stroke-width": tv ? 5 : 3,
      points: line.map((v, j) => `${x(j).toFixed(1)},${y(v).toFixed(1)}`).join(" ")}));
  });
  figure.prepend(chart);
}

// Every hand in hand order: who won it and who fouled marked in their cells, a note where
// something became of it (undone, replaced by an edit, a misdeal), and no notes column
// where there is none to say
function renderHands(game) {
  $("hands-title").textContent = words.hands;
  const table = $("hands");
  table.replaceChildren();
  const notes = game.hands.map((hand) => [hand.state ? words[hand.state] : "",
                                          hand.misdeal ? words.misdeal : ""]
    .filter(Boolean).join(", "));
  const noted = notes.some(Boolean);
  const head = el("tr");
  head.append(el("th", "#"));
  for (const column of game.columns) {
    const th = el("th");
    th.append(named(column.label));
    head.append(th);
  }
  if (noted) head.append(el("th", ""));
  table.append(head);
  let marked = false;
  game.hands.forEach((hand, n) => {
    const row = el("tr", null, hand.state);
    row.append(el("th", hand.no));
    hand.cells.forEach((cell, i) => {
      const td = el("td", null, signClass(cell));
      for (const [list, mark, word] of [[hand.won, WON, words.won], [hand.fouled, FOUL, words.foul]]) {
        if ((list || []).includes(i)) {
          const sign = el("span", mark, "mark");
          sign.setAttribute("aria-label", word);
          td.append(sign);
          marked = true;
        }
      }
      td.append(document.createTextNode(cell));
      row.append(td);
    });
    if (noted) row.append(el("td", notes[n], "note"));
    table.append(row);
  });
  $("marks").textContent = marked ? `${WON} ${words.won} · ${FOUL} ${words.foul}` : "";
}

function renderTv(game) {
  $("count").textContent = game.count;
  const last = $("last");
  last.replaceChildren();
  if (game.last) {
    last.append(el("strong", game.last.title), document.createTextNode(` ${game.last.summary}`));
  }
}

// A table of text, its column `nameAt` names (kept apart), in a box that scrolls sideways
// where it is wider than the phone
function dataTable(header, rows, cls, nameAt = 0) {
  const box = el("div", null, "scroll");
  const table = el("table", null, cls || "data");
  box.append(table);
  if (header) {
    const head = el("tr");
    header.forEach((text) => head.append(el("th", text)));
    table.append(head);
  }
  for (const row of rows) {
    const tr = el("tr");
    row.forEach((text, i) => {
      const td = el("td", null, i === nameAt ? "name" : signClass(text));
      if (i === nameAt) td.append(named(text)); else td.textContent = text;
      tr.append(td);
    });
    table.append(tr);
  }
  return box;
}

function renderMore(more) {
  $("finished-title").textContent = words.finished;
  $("ledger-title").textContent = words.ledger;
  $("season-title").textContent = words.season;
  const list = $("finished");
  list.replaceChildren();
  $("no-finished").textContent = words.none;
  $("no-finished").hidden = more.finished.length > 0;  // a sentence, not a list's item
  list.hidden = !more.finished.length;
  for (const past of more.finished) {
    const item = el("li");
    item.append(el("strong", `${past.number}. ${past.title}`), el("br"),
                el("span", [past.when, past.count].filter(Boolean).join(" · ")));
    item.append(dataTable(null, past.totals, "data totals"));
    list.append(item);
  }
  const ledger = $("ledger");
  ledger.replaceChildren();
  if (more.ledger.note) ledger.append(el("p", more.ledger.note));
  for (const money of more.ledger.tables) {
    ledger.append(dataTable([words.owes, money.currency], money.rows));
    if (money.settle.length) {
      ledger.append(el("h3", words.settle));
      const moves = el("ul", null, "moves");
      for (const [payer, payee, amount] of money.settle) {
        const item = el("li");
        item.append(named(payer), document.createTextNode(` ${words.pays} `), named(payee),
                    document.createTextNode(` ${amount}`));
        moves.append(item);
      }
      ledger.append(moves);
    }
  }
  const season = $("season");
  season.replaceChildren();
  if (more.season.title) season.append(el("p", `${more.season.title} · ${more.season.span}`));
  if (more.season.note) season.append(el("p", more.season.note));
  for (const ranking of more.season.rankings) {
    season.append(el("h3", `${ranking.game} · ${ranking.by}`));
    season.append(dataTable(ranking.header, ranking.rows, "data", 1));  // the place, the name
  }
}

function render(data) {
  words = data.words || {};
  document.documentElement.lang = data.language || "en";
  const game = data.game;
  $("switch").textContent = showingMore ? words.back : words.more;
  if (!game) {
    $("title").textContent = data.note || "";
    $("heading").textContent = "";
    for (const id of ["standings", "hands", "chart", "count", "last"]) $(id).replaceChildren();
    charted = null;
  } else {
    open = game.open;
    $("title").textContent = game.title;
    document.title = game.title;
    $("heading").textContent = game.heading;
    renderStandings(game);
    renderHands(game);
    renderTv(game);
    fitStandings();
    renderChart(game);
  }
  renderMore(data.more);
}

function status(text, offline) {
  const state = $("state");
  state.textContent = text;
  state.classList.toggle("offline", Boolean(offline));
}

function listen() {
  const feed = new EventSource(`/s/${token}/events`);
  feed.addEventListener("table", (event) => {
    render(JSON.parse(event.data));
    status((open ? words.live : words.finished_game) || "", false);
  });
  feed.addEventListener("gone", () => {
    feed.close();
    location.reload();  // the link opens nothing now: the server says so
  });
  feed.onerror = () => {
    status(words.offline || "…", true);
    if (feed.readyState === EventSource.CLOSED) setTimeout(again, 3000);
  };
}

async function again() {
  // the feed was refused: if the link opens nothing now (turned off or replaced while the
  // page was away), show what the server says of it rather than the last scores for ever
  try {
    const answer = await fetch(`/s/${token}/data`, {cache: "no-store"});
    if (answer.status === 404) { location.reload(); return; }
  } catch (e) { /* still away: try again */ }
  listen();
}

document.addEventListener("DOMContentLoaded", () => {
  if (tv) document.body.classList.add("tv");
  $("switch").addEventListener("click", () => {
    showingMore = !showingMore;
    $("game").hidden = showingMore;
    $("more").hidden = !showingMore;
    $("switch").textContent = showingMore ? words.back : words.more;
    if (!showingMore && charted) renderChart(charted);  // hidden, it had no size
  });
  let resizing = 0;
  addEventListener("resize", () => {
    cancelAnimationFrame(resizing);
    resizing = requestAnimationFrame(() => {
      if (charted) { $("chart").replaceChildren(); fitStandings(); renderChart(charted); }
    });
  });
  listen();
});
