import { describe, expect, it } from 'vitest';
import { pictureOfPath, picturePath } from './pictures.js';

/** What a shell does with a request path: split below the page, decode each segment. */
const segmentsOf = (relative: string) => relative.split('/').map((s) => decodeURIComponent(s));

describe('picture paths', () => {
  it('are built by the renderer and parsed back by the shells to the same bundle and picture', () => {
    const built = picturePath('b-20250101T000000000Z-0123456789abcdef', 'pictures/1-r 1.jpg');
    expect(built).toBe('bundles/b-20250101T000000000Z-0123456789abcdef/pictures/1-r%201.jpg');
    expect(pictureOfPath(segmentsOf(built))).toEqual({ bundleId: 'b-20250101T000000000Z-0123456789abcdef', picture: 'pictures/1-r 1.jpg' });
  });

  it('drop empty, . and .. segments and encode the rest', () => {
    expect(picturePath('b/1', '../../etc/./passwd')).toBe('bundles/b%2F1/etc/passwd');
  });

  it.each([[[]], [['bundles']], [['bundles', 'b-1']], [['bundles', '', 'p.jpg']], [['assets', 'b-1', 'p.jpg']]])('are not read from %j', (segments) => {
    expect(pictureOfPath(segments)).toBeNull();
  });
});
