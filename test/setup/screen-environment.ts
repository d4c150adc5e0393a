/**
Every test file starts without the CI variables Ink reads on import (is-in-ci): with `CI` set, Ink
draws no live frame at all, and a screen test waits on an empty terminal. The product hides them
the same way while its screens load (src/cli/environment/screen-environment.ts); tests import Ink directly.
*/
import {hideCiVariables} from '../../src/cli/environment/screen-environment.js';

hideCiVariables(process.env);
