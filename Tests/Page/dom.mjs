// The page's own index.html as a small document, just big enough for view.js to draw into: so that a
// test reads what a screen shows (`shownText`) after the messages it got, drawn as main.js draws
// (only a state that changed is drawn). Elements keep text and refuse markup. Not a browser: no
// layout, no CSS (an element is shown unless it or a parent is `hidden`). Not a test file itself
// (`node --test` runs only *.test.mjs).
import { readFileSync } from 'node:fs';
import { update } from '../../Sources/TouchSchoolServer/Page/Web/update.js';
import { view } from '../../Sources/TouchSchoolServer/Page/Web/view.js';

const VOID = new Set(['meta', 'link', 'img', 'input', 'br']);

/** What a canvas was drawn: its circles filled or stroked, each {x, y, radius, fill} or {…, stroke}. */
class Drawing {
  constructor() { this.shapes = []; this.fillStyle = ''; this.strokeStyle = ''; this.lineWidth = 1; this.path = null; }
  clearRect() { this.shapes = []; }
  beginPath() { this.path = null; }
  arc(x, y, radius) { this.path = { x, y, radius }; }
  fill() { this.shapes.push({ ...this.path, fill: this.fillStyle }); }
  stroke() { this.shapes.push({ ...this.path, stroke: this.strokeStyle }); }
}

class Element {
  constructor(tag, attributes = {}) {
    this.tagName = tag.toUpperCase();
    this.attributes = { ...attributes };
    this.children = [];
    this.parent = null;
    this.text = '';
    this.hidden = 'hidden' in attributes;
    this.id = attributes.id || '';
    this.className = attributes.class || '';
    this.dataset = {};
    for (const [name, value] of Object.entries(attributes)) {
      if (name.startsWith('data-')) this.dataset[name.slice(5).replace(/-([a-z])/g, (_, c) => c.toUpperCase())] = value;
    }
    this.style = { setProperty() {} };
    this.value = attributes.value || '';
    this.href = attributes.href || '';
    this.open = false;
  }
  get classList() {
    const names = () => this.className.split(/\s+/).filter(Boolean);
    return {
      add: (name) => { if (!names().includes(name)) this.className = [...names(), name].join(' '); },
      remove: (name) => { this.className = names().filter((n) => n !== name).join(' '); },
      toggle: (name, on) => { if (on) this.classList.add(name); else this.classList.remove(name); },
      contains: (name) => names().includes(name),
    };
  }
  get cells() { return this.children; }
  set textContent(value) { this.text = String(value); this.children = []; }
  get textContent() { return this.text + this.children.map((c) => c.textContent).join(''); }
  set innerHTML(value) { throw new Error(`markup set: ${value}`); }
  setAttribute(name, value) {
    this.attributes[name] = String(value);
    if (name === 'href') this.href = String(value);
  }
  getAttribute(name) { return name === 'href' ? this.href : (this.attributes[name] ?? null); }
  removeAttribute(name) { delete this.attributes[name]; }
  append(...nodes) {
    for (const node of nodes) {
      if (typeof node === 'string') { this.text += node; continue; }
      node.parent = this;
      this.children.push(node);
    }
  }
  appendChild(node) { this.append(node); return node; }
  replaceChildren(...nodes) { this.text = ''; this.children = []; this.append(...nodes); }
  /** Events are not sent here: a test sends the page its messages. */
  addEventListener() {}
  animate() { return { cancel() {} }; }
  focus() {}
  showModal() { this.open = true; }
  close() { this.open = false; }
  getBoundingClientRect() { return { left: 0, top: 0, width: 400, height: 300, bottom: 300, right: 400 }; }
  /** A canvas's 2D context that keeps what was drawn since it was last cleared (`Drawing`). */
  getContext() { return (this.drawing ||= new Drawing()); }
  matches(selector) {
    if (selector.startsWith('#')) return this.id === selector.slice(1);
    if (selector.startsWith('.')) return this.classList.contains(selector.slice(1));
    const attribute = /^\[([a-z-]+)\]$/.exec(selector);
    if (attribute) return attribute[1] in this.attributes;
    return this.tagName === selector.toUpperCase();
  }
  querySelectorAll(selector) {
    const found = [];
    const walk = (element) => { for (const child of element.children) { if (child.matches(selector)) found.push(child); walk(child); } };
    walk(this);
    return found;
  }
  querySelector(selector) { return this.querySelectorAll(selector)[0] || null; }
}

/** index.html as a tree of Elements (the page's markup is plain: tags, attributes, text, comments). */
function parse(html) {
  const root = new Element('#document');
  const open = [root];
  const body = html.replace(/<!--[\s\S]*?-->/g, '').replace(/<!doctype[^>]*>/i, '');
  for (const [, close, tag, rest, text] of body.matchAll(/<(\/?)([a-zA-Z0-9]+)([^>]*)>|([^<]+)/g)) {
    if (text !== undefined) {
      if (text.trim()) open.at(-1).append(text.replace(/\s+/g, ' '));
      continue;
    }
    if (close) {
      while (open.length > 1 && open.pop().tagName !== tag.toUpperCase());
      continue;
    }
    const attributes = {};
    for (const [, name, , quoted] of rest.matchAll(/([a-zA-Z-]+)(="([^"]*)")?/g)) attributes[name] = quoted ?? '';
    const element = new Element(tag, attributes);
    open.at(-1).append(element);
    if (!VOID.has(tag.toLowerCase())) open.push(element);
  }
  return root;
}

/** A document of the page's index.html, with the globals view.js uses. */
export function pageDocument() {
  const root = parse(readFileSync(new URL('../../Sources/TouchSchoolServer/Page/Web/index.html', import.meta.url), 'utf8'));
  const html = root.querySelector('html');
  const document = {
    documentElement: html, body: root.querySelector('body'), title: '',
    getElementById: (id) => root.querySelector(`#${id}`),
    querySelectorAll: (selector) => root.querySelectorAll(selector),
    createElement: (tag) => new Element(tag),
  };
  globalThis.ResizeObserver ||= class { observe() {} };
  globalThis.addEventListener ||= () => {};
  globalThis.getComputedStyle ||= () => ({ paddingBottom: '0', visibility: 'visible' });
  globalThis.innerHeight ||= 1080;
  return document;
}

/** The text an element shows: its own and its shown children's, words apart; nothing of a hidden one. */
export function shownText(element) {
  if (!element || element.hidden || element.tagName === 'HEAD' || element.tagName === 'NOSCRIPT' || (element.tagName === 'DIALOG' && !element.open)) return '';
  const parts = [element.text, ...element.children.map(shownText)];
  return parts.map((part) => part.trim()).filter(Boolean).join(' ');
}

/** Whether an element is shown: neither it nor a parent hidden. */
export function isShown(element) {
  for (let at = element; at; at = at.parent) if (at.hidden) return false;
  return true;
}

/**
 * A page as main.js runs it, without the world: `send(message, now)` updates the state and draws it
 * when it changed (the effects are kept, not run); `page.text(id)` what an element shows.
 */
export function runningPage(state, lang = 'ko') {
  const document = pageDocument();
  const drawn = view(document, lang, () => {});
  const page = {
    state, document, effects: [],
    send(message, now = 0) {
      const was = page.state;
      const next = update(page.state, message, now);
      page.state = next.state;
      page.effects = next.effects;
      if (page.state !== was) page.draw(now);
      return page;
    },
    draw(now = 0) { drawn.render(page.state, now); drawn.renderRanks(page.state); return page; },
    element: (id) => document.getElementById(id),
    text: (id) => shownText(document.getElementById(id)),
    shown: (id) => isShown(document.getElementById(id)),
  };
  return page.draw();
}
