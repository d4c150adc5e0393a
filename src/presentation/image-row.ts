/**
@module An attached image as its row says it, in the live transcript, a replay, watch and print:
`image · PNG · 312.0 KB · 1280×800 · shot.png`.
*/
import type {ImageAttachment} from '../tools/content.js';
import {sizeText} from './size-text.js';

/** The short name of an image type: `PNG`, `JPEG`, `GIF`, `WebP`; another type as it is named. */
export function imageTypeName(mediaType: string): string {
	const known: Readonly<Record<string, string>> = {'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/gif': 'GIF', 'image/webp': 'WebP'};
	return known[mediaType] ?? mediaType;
}

/** The row's text (unsanitized: the name is the person's file's; the layout sanitizes). */
export function imageRowText(image: ImageAttachment): string {
	return ['image', imageTypeName(image.mediaType), sizeText(image.bytes), `${image.width}×${image.height}`, ...(image.name === undefined ? [] : [image.name])].join(' · ');
}
