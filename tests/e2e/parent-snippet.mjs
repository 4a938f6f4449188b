// The README's parent-page lines for a single-file figure in an iframe ("One file per figure"), verbatim: the tests
// that embed one use exactly these (figures-standalone.test.mjs checks that the README holds them).
export const PARENT_SNIPPET = `<script>addEventListener('message', (e) => { if (e.data?.type !== 'posenc:height') return;
  for (const f of document.querySelectorAll('iframe')) if (f.contentWindow === e.source) f.height = e.data.height; });
</script>`;
