/**
@module The terminal's colour depth for the Ink views (StyledRows maps colours to it). The commands
provide the value `colorDepth` decided (cli/environment/terminal-env.ts); without a provider, the 16 colours.
*/
import {createContext} from 'react';
import type {ColorDepth} from '../src/layout/terminal/color-depth.js';

export const ColorDepthContext = createContext<ColorDepth>('ansi16');
