// The scorepad: lays out the forms the bot describes (bot/core/pad.py) and sends back the
// options a person would type. No rule and no score lives here: the bot checks and scores.
"use strict";

const TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js";
const $ = (id) => document.getElementById(id);
let tg = null;          // Telegram.WebApp, inside Telegram
let initData = "";      // its init data, as Telegram gave it (the server checks it)
let table = "";         // the link's token (the console's; in Telegram, in the init data)
let view = null;        // what the bot last said about the table
let chosen = 0;         // which form is shown
let submit = "";        // this entry's id: a retry or a double tap is recorded once
let sending = false;

function newSubmit() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  submit = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function say(text, error) {
  const message = $("message");
  message.textContent = text || "";
  message.className = error ? "error" : "";
}

async function api(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({init_data: initData, table, ...body}),
  });
  let data = {};
  try { data = await response.json(); } catch (e) { data = {ok: false, error: response.statusText}; }
  data.http = response.status;
  return data;
}

function playersIn(form) {
  return form.controls.some((c) => ["player", "players", "each"].includes(c.control));
}

function gridFor(form, players) {
  const columns = form.controls.filter((c) => ["player", "players", "each"].includes(c.control) && !c.topic);
  const grid = el("table", null, "grid");
  const head = el("tr");
  head.append(el("th", players.some((p) => p.label) ? view.words.side : view.words.player, "name"));
  for (const c of columns) {
    const th = el("th", c.label);
    th.title = c.help;
    head.append(th);
  }
  grid.append(head);
  players.forEach((player, seat) => {
    const row = el("tr", null, player.playing ? "" : "out");
    row.append(el("td", player.label || player.name, "name"));  // a side: A: asha+chetan
    for (const c of columns) {
      const cell = el("td");
      let input;
      if (c.control === "player") {
        input = el("input");
        input.type = "radio";
        input.name = `${form.command}-${c.label}`;
        input.addEventListener("click", () => {   // a second tap clears the choice
          if (input.dataset.was === "1") { input.checked = false; }
          document.querySelectorAll(`input[name="${input.name}"]`).forEach((i) => { i.dataset.was = "0"; });
          input.dataset.was = input.checked ? "1" : "0";
        });
      } else if (c.control === "players") {
        input = el("input");
        input.type = "checkbox";
      } else {
        input = el("input", null, "number");
        input.type = "text";
        input.inputMode = c.low !== undefined && c.low >= 0 ? "numeric" : "decimal";
        input.pattern = "-?[0-9]*";
        input.placeholder = c.low !== undefined ? `${c.low}–${c.high}` : "";
      }
      input.dataset.option = c.label;
      input.dataset.player = player.name;
      input.setAttribute("aria-label", `${c.label} ${player.name}`);
      cell.append(input);
      row.append(cell);
    }
    grid.append(row);
  });
  return grid;
}

function fieldFor(form, c) {
  let wrap, input;
  if (c.control === "bool") {
    wrap = el("label", null, "switch");
    input = el("input");
    input.type = "checkbox";
    wrap.append(input, el("span", c.label));
  } else if (c.control === "choice") {
    wrap = el("fieldset");
    wrap.setAttribute("aria-label", c.label);
    wrap.append(el("legend", c.label));
    const row = el("div", null, "choices");
    for (const choice of c.choices) {
      const label = el("label");
      const radio = el("input");
      radio.type = "radio";
      radio.name = `${form.command}-${c.label}`;
      radio.value = choice;
      radio.dataset.option = c.label;
      radio.setAttribute("aria-label", `${c.label} ${choice}`);
      label.append(radio, el("span", choice));
      row.append(label);
    }
    wrap.append(row, el("span", c.help, "help"));
    return wrap;
  } else if (["player", "players", "each"].includes(c.control)) {
    // a player's option folded under a topic: typed, as in a command
    wrap = el("label", null, "field");
    input = el("input");
    input.type = "text";
    wrap.append(el("span", c.label), input);
  } else {
    wrap = el("label", null, "field");
    input = el("input");
    input.type = c.control === "int" ? "number" : "text";
    if (c.control === "int") { input.min = c.low; input.max = c.high; input.inputMode = "numeric"; }
    wrap.append(el("span", c.label), input);
  }
  input.dataset.option = c.label;
  input.setAttribute("aria-label", c.label);
  wrap.append(el("span", c.help, "help"));
  return wrap;
}

function renderForm() {
  const form = view.forms[chosen];
  const pad = $("pad");
  pad.replaceChildren();
  const players = view.players;
  if (playersIn(form)) pad.append(gridFor(form, players));
  const below = el("div", null, "below");
  const topics = new Map();
  for (const c of form.controls) {
    const onGrid = ["player", "players", "each"].includes(c.control) && !c.topic;
    if (onGrid) continue;
    if (c.topic) {
      if (!topics.has(c.topic)) topics.set(c.topic, []);
      topics.get(c.topic).push(c);
    } else {
      below.append(fieldFor(form, c));
    }
  }
  pad.append(below);
  for (const [topic, controls] of topics) {
    const box = el("details", null, "topic");
    box.append(el("summary", topic));
    const inner = el("div", null, "below");
    for (const c of controls) inner.append(fieldFor(form, c));
    box.append(inner);
    pad.append(box);
  }
  newSubmit();
}

function options() {
  // what a person would type: winner:asha seen:bikash dipa maal:asha=10 bikash=2
  const form = view.forms[chosen];
  const found = {};
  for (const c of form.controls) {
    const inputs = [...$("pad").querySelectorAll(`[data-option="${CSS.escape(c.label)}"]`)];
    let value = "";
    if (c.control === "player" && !c.topic) {
      value = inputs.filter((i) => i.checked).map((i) => i.dataset.player)[0] || "";
    } else if (c.control === "players" && !c.topic) {
      value = inputs.filter((i) => i.checked).map((i) => i.dataset.player).join(" ");
    } else if (c.control === "each" && !c.topic) {
      value = inputs.filter((i) => i.value.trim() !== "")
        .map((i) => `${i.dataset.player}=${i.value.trim()}`).join(" ");
    } else if (c.control === "bool") {
      value = inputs[0] && inputs[0].checked ? "yes" : "";
    } else if (c.control === "choice") {
      value = inputs.filter((i) => i.checked).map((i) => i.value)[0] || "";
    } else {
      value = inputs[0] ? inputs[0].value.trim() : "";
    }
    if (value) found[c.key] = value;
  }
  return found;
}

function renderTabs() {
  const nav = $("forms");
  nav.replaceChildren();
  if (view.forms.length < 2) return;
  view.forms.forEach((form, i) => {
    const tab = el("button", `/${form.command}`);
    tab.type = "button";
    tab.setAttribute("role", "tab");
    tab.setAttribute("aria-selected", String(i === chosen));
    tab.title = form.title;
    tab.addEventListener("click", () => { chosen = i; renderTabs(); renderForm(); say(""); });
    nav.append(tab);
  });
}

function render() {
  document.documentElement.lang = view.language || "en";
  $("standings-title").textContent = view.words.standings;
  const send = $("send");
  send.textContent = view.words.send;
  if (!view.open) {
    $("title").textContent = view.note;
    $("pad").replaceChildren();
    $("forms").replaceChildren();
    send.hidden = true;
    if (tg) tg.MainButton.hide();
    return;
  }
  $("title").textContent = view.title;
  $("rules").textContent = view.rules;
  $("status").textContent = view.status;
  $("standings").textContent = view.board;
  if (chosen >= view.forms.length) chosen = 0;
  renderTabs();
  renderForm();
  if (tg) {
    tg.MainButton.setText(view.words.send);
    tg.MainButton.show();
  } else {
    send.hidden = false;
  }
}

async function load() {
  const data = await api("/pad/api/state", {});
  if (!data.open && data.ok === false) {
    $("title").textContent = data.error;
    return;
  }
  view = data;
  table = data.table || table;
  render();
}

async function sendHand() {
  if (sending || !view || !view.open) return;
  sending = true;
  document.body.dataset.busy = "1";  // (what a test waits on)
  const form = view.forms[chosen];
  $("send").disabled = true;
  if (tg) tg.MainButton.showProgress(false);
  say(view.words.sending);
  try {
    const answer = await api("/pad/api/send", {command: form.command, options: options(), submit});
    if (answer.ok) {
      await load();  // the standings as they are now, then what the bot said
      newSubmit();
      say(answer.text || view.words.sent);
    } else {
      say(answer.error, true);
    }
  } catch (e) {
    say(view.words.retry, true);  // the same id again: recorded once however often it is sent
  } finally {
    sending = false;
    delete document.body.dataset.busy;
    $("send").disabled = false;
    if (tg) tg.MainButton.hideProgress();
  }
}

function start() {
  $("pad").addEventListener("input", newSubmit);  // another entry: another id
  $("send").addEventListener("click", sendHand);
  if (tg) tg.MainButton.onClick(sendHand);
  loadUntilLoaded(1000);
}

// The bot is away (restarting, or the network dropped): no words to say it in yet, so a
// sign that the pad is waiting, and another try, later each time, until it answers
function loadUntilLoaded(wait) {
  load().then(() => { if (wait > 1000) say(""); }).catch(() => {
    say("…", true);
    setTimeout(() => loadUntilLoaded(Math.min(wait * 2, 10000)), wait);
  });
}

document.addEventListener("DOMContentLoaded", () => {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.has("tgWebAppData")) {
    const script = document.createElement("script");
    script.src = TELEGRAM_SCRIPT;
    script.onload = () => {
      tg = window.Telegram.WebApp;
      document.documentElement.classList.add("telegram");
      initData = tg.initData;
      tg.ready();
      tg.expand();
      start();
    };
    script.onerror = () => say("Telegram's script did not load.", true);
    document.head.append(script);
  } else {
    table = hash.get("t") || "";
    start();
  }
});
