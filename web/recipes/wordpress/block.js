// The "posenc figure" block's editor side (no build step: WordPress's own globals). The block is dynamic: the post
// stores <!-- wp:posenc/figure {"figure":"rope-decay","params":"base=500000 controls"} /--> and posenc.php renders the
// element on every view, so any role that can edit posts can insert it.
(function (blocks, element, blockEditor, components) {
  const el = element.createElement;
  blocks.registerBlockType('posenc/figure', {
    apiVersion: 2,
    title: 'posenc figure',
    description: 'An interactive positional-encoding figure (posenc).',
    icon: 'chart-line',
    category: 'embed',
    keywords: ['rope', 'positional encoding', 'figure'],
    attributes: { figure: { type: 'string', default: 'rope-decay' }, params: { type: 'string', default: '' } },
    edit: function (props) {
      const a = props.attributes;
      return el('div', blockEditor.useBlockProps({ className: 'posenc-block' }),
        el(components.TextControl, { label: 'Figure (e.g. rope-decay, alibi, attention)', value: a.figure, onChange: function (v) { props.setAttributes({ figure: v }); } }),
        el(components.TextControl, { label: 'Parameters (e.g. base=500000 controls)', value: a.params, onChange: function (v) { props.setAttributes({ params: v }); } }),
        el('p', null, 'posenc figure "' + a.figure + '"' + (a.params ? ' — ' + a.params : '') + ': shown live when the post is viewed.'));
    },
    save: function () { return null; },
  });
})(window.wp.blocks, window.wp.element, window.wp.blockEditor, window.wp.components);
