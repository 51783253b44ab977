/* The colours of the charts' series: a colour-blind-safe palette, then generated hues, and a darker shade of each. */
#ifndef CLAIMBENCH_CHART_COLOUR_H
#define CLAIMBENCH_CHART_COLOUR_H

#include <stddef.h>

/*
 * Writes into buf (at least 8 bytes) colour number n as "#rrggbb": a fixed palette for the
 * first numbers, then generated hues, never grey; different numbers (the first 1024 at least,
 * four times the blocks a chart draws), different colours.
 */
void chart_colour(size_t n, char *buf);

/*
 * Writes into buf (at least 8 bytes) colour number colour at shade variant: the colour
 * itself for an even variant (a strategy's first claim mode in the report), a clearly
 * darker one for an odd variant (its other mode). Nothing else moves the colour: what
 * variant / 2 counts (worker counts, sections, sweep points of one strategy and mode) is
 * told apart by dash (the chart's styles) and marker shape (chart_shape) alone.
 */
void chart_shade(size_t colour, int variant, char *buf);

/* Marker shapes chart_shape numbers (0 to CHART_SHAPES - 1): common.gp's point types. */
#define CHART_SHAPES 10

/*
 * The marker shape of colour number colour at shade variant, 0 to CHART_SHAPES - 1: the
 * shades of one colour (a strategy's claim modes) different shapes, and colours beyond
 * the palette shapes apart from the palette's, so that shape tells apart what colour alone
 * may not.
 */
int chart_shape(size_t colour, int variant);

#endif
