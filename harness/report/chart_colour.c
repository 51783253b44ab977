/* The colours of the charts' series (chart_colour.h). */
#include <math.h>
#include <stdio.h>

#include "report/chart_colour.h"

/*
 * The first colour numbers' colours, "#rrggbb": the Okabe-Ito palette, Paul Tol's darker
 * ones and black, which colour-blind readers can tell apart, placed so that the strategies
 * registered when it was written keep the colours earlier reports drew them in.
 */
static const char *const palette[] = {
	"#d55e00", "#0072b2", "#e69f00", "#009e73", "#117733", "#cc79a7", "#56b4e9", "#332288",
	"#882255", "#999933", "#000000", "#44aa99", "#aa4499", "#cc6677", "#ddcc77", "#88ccee",
};

#define PALETTE_LEN (sizeof(palette) / sizeof(palette[0]))

/* The golden ratio's fraction: generated hues this far apart spread evenly round the wheel for any count. */
#define HUE_STEP 0.6180339887498949

/*
 * How far a strategy's other claim mode (an odd shade variant) moves its colour towards
 * black: far enough to be told apart from the colour and from the palette's darker ones,
 * never lighter, so that it keeps its contrast against white.
 */
#define OTHER_MODE_DARKER 0.4

/* The generated hues' start, their saturations and values: picked so that no two strategy/mode pairs look alike. */
#define HUE_START 0.65

void chart_colour(size_t n, char *buf)
{
	size_t m = n - PALETTE_LEN;
	/* HSV: a hue HUE_STEP round the wheel from the last, saturated enough never to be grey, in four tones. */
	double hue = fmod(HUE_START + (double)m * HUE_STEP, 1.0) * 6, s = m / 2 % 2 ? 0.6 : 0.9, v = m % 2 ? 0.55 : 0.8;
	int sector = (int)hue % 6;
	double f = hue - floor(hue), p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
	const double rgb[6][3] = { { v, t, p }, { q, v, p }, { p, v, t }, { p, q, v }, { t, p, v }, { v, p, q } };

	if (n < PALETTE_LEN)
		snprintf(buf, 8, "%s", palette[n]);
	else
		snprintf(buf, 8, "#%02x%02x%02x", (unsigned int)lround(rgb[sector][0] * 255),
			 (unsigned int)lround(rgb[sector][1] * 255), (unsigned int)lround(rgb[sector][2] * 255));
}

int chart_shape(size_t colour, int variant)
{
	return (int)((colour + colour / PALETTE_LEN + 3 * (size_t)(variant < 0 ? 0 : variant)) % CHART_SHAPES);
}

void chart_shade(size_t colour, int variant, char *buf)
{
	char rgb[8];
	double keep = variant > 0 && variant % 2 ? 1 - OTHER_MODE_DARKER : 1;
	unsigned int c[3], i;

	chart_colour(colour, rgb);
	sscanf(rgb, "#%2x%2x%2x", &c[0], &c[1], &c[2]);
	for (i = 0; i < 3; i++)
		c[i] = (unsigned int)lround(c[i] * keep);
	snprintf(buf, 8, "#%02x%02x%02x", c[0] & 0xff, c[1] & 0xff, c[2] & 0xff);
}
