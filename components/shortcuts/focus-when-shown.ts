/**
 * Focuses the element with this id as soon as it can take the focus: at once when it is there already, else when
 * the page being opened renders it and enables it (a command that leads to another page and to a field of it).
 * Gives up after `timeoutMs`.
 */
export function focusWhenShown(id: string, timeoutMs = 10_000) {
  const focus = () => {
    const element = document.getElementById(id);
    element?.focus();
    return element !== null && document.activeElement === element;
  };
  if (focus()) return;
  const observer = new MutationObserver(() => {
    if (focus()) stop();
  });
  const timer = window.setTimeout(() => stop(), timeoutMs);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
  }
  observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["disabled"] });
}
