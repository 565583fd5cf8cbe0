// Starts the app once the prerendered page has painted (docs/decisions/054). The page's text
// and styles come with the HTML; the JavaScript that hydrates it waits for the first frame,
// so that it never takes bandwidth or CPU from the first paint. The module graph (data-entry)
// and its imports (data-preload) are written here by the build (scripts/prerender.ts).
const script = document.currentScript;
const entry = script?.dataset.entry;
const preloads = (script?.dataset.preload ?? '').split(' ').filter(Boolean);

function start() {
  for (const href of preloads) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  const module = document.createElement('script');
  module.type = 'module';
  module.crossOrigin = '';
  module.src = entry;
  document.head.append(module);
}

// A frame has been produced once requestAnimationFrame's callback has run and yielded.
if (entry) requestAnimationFrame(() => setTimeout(start, 0));
