<?php
/**
 * Plugin Name: posenc figures
 * Description: Interactive positional-encoding figures (RoPE, ALiBi, sinusoidal …) from the posenc package: a "posenc figure" block and a [posenc] shortcode. The plugin, not the post's markup, writes the script, so authors and contributors (no unfiltered_html) can insert live figures.
 * Version: 0.1.0
 * Requires at least: 5.8
 * Requires PHP: 7.4
 * License: MIT
 *
 * The figures' files (figures.js, its worker and the .wasm builds: the package's dist/) live in this plugin's assets/
 * folder and are enqueued from there: nothing to copy to the server by hand. Usage in a post:
 *   [posenc figure="rope-decay" base="500000" controls]           (classic content, or a Shortcode block)
 *   the "posenc figure" block: a figure name and its parameters, e.g.  base=500000 controls
 * Every parameter becomes an attribute of <posenc-figure> (the README's table lists them); names are checked here
 * and values escaped, so a post can add nothing but a figure.
 */

if (!defined('ABSPATH')) exit;

/** The <posenc-figure> for a figure name and [name => value] parameters (value true: a bare attribute). */
function posenc_figure_html($figure, $params) {
  $figure = preg_replace('/[^a-z0-9-]/', '', strtolower((string) $figure));
  if ($figure === '') return '<p class="posenc-error">[posenc: no figure given, e.g. [posenc figure="rope-decay"]]</p>';
  wp_enqueue_script('posenc-figures', plugins_url('assets/figures-loader.js', __FILE__), array(), '0.1.0', true);
  $attrs = '';
  foreach ($params as $name => $value) {
    $name = strtolower((string) $name);
    if ($name === 'figure' || !preg_match('/^[a-z][a-z0-9_]*$/', $name) || strpos($name, 'on') === 0) continue;   // no event handlers, no odd names
    $attrs .= $value === true ? ' ' . $name : ' ' . $name . '="' . esc_attr($value) . '"';
  }
  // The text inside the element is what a reader sees where the script does not run; the figure replaces it.
  return '<posenc-figure figure="' . esc_attr($figure) . '"' . $attrs . '>' . esc_html($figure) . ': an interactive figure (it needs JavaScript).</posenc-figure>';
}

/** "base=500000 controls text='a b'" → ['base' => '500000', 'controls' => true, 'text' => 'a b'] (shortcode syntax). */
function posenc_parse_params($text) {
  $out = array();
  foreach ((array) shortcode_parse_atts((string) $text) as $k => $v) {
    if (is_int($k)) $out[$v] = true; else $out[$k] = $v;
  }
  return $out;
}

/** [posenc figure="rope-decay" base="500000" controls]: bare words (controls) become bare attributes. */
function posenc_shortcode($atts) {
  $params = array();
  foreach ((array) $atts as $k => $v) {
    if (is_int($k)) $params[strtolower($v)] = true; else $params[$k] = $v;
  }
  return posenc_figure_html($params['figure'] ?? '', $params);
}
add_shortcode('posenc', 'posenc_shortcode');

/** The block: dynamic (rendered here on every view), so the saved post holds only the block's comment. */
function posenc_register_block() {
  wp_register_script('posenc-block-editor', plugins_url('block.js', __FILE__),
    array('wp-blocks', 'wp-element', 'wp-block-editor', 'wp-components', 'wp-i18n'), '0.1.0', true);
  register_block_type('posenc/figure', array(
    'api_version' => 2,
    'editor_script' => 'posenc-block-editor',
    'attributes' => array(
      'figure' => array('type' => 'string', 'default' => 'rope-decay'),
      'params' => array('type' => 'string', 'default' => ''),
    ),
    'render_callback' => function ($a) {
      return posenc_figure_html($a['figure'] ?? '', posenc_parse_params($a['params'] ?? ''));
    },
  ));
}
add_action('init', 'posenc_register_block');
