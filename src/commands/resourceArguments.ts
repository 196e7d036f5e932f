/**
 * What `get`'s words ask for, read as cli-runtime's Builder.ResourceTypeOrNameArgs reads kubectl's: `TYPE[,TYPE...]`
 * (every object of each type), `TYPE NAME...` (those objects of one type) or `TYPE/NAME...` (each object of its own
 * type). `TYPE1,TYPE2 NAME...` is each type with each name, as TYPE/NAME words. Pure.
 */
export type ResourceArguments =
  | { form: 'types'; words: string[] }
  | { form: 'names'; word: string; names: string[] }
  | { form: 'tuples'; tuples: Array<{ word: string; name: string }> };

/** Words kubectl refuses before it reads anything; the message is kubectl's (printed after `error: `). */
export class ResourceArgumentsError extends Error {}

/** The comma-separated types of one word, each once, in their order (cli-runtime's SplitResourceArgument). */
export function splitTypes(word: string): string[] {
  return [...new Set(word.split(','))];
}

/** `command` is the program's name, which kubectl's message for TYPE NAME/… quotes (its os.Args[0]). */
export function readResourceArguments(args: readonly string[], command: string): ResourceArguments {
  const words = normalized(args);
  const slashed = words.filter((w) => w.includes('/')).length;
  if (slashed > 0 && slashed !== words.length)
    // kubectl's message, whose parenthesis it never closes.
    throw new ResourceArgumentsError(
      `there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. '${command} get resource/<resource_name>' instead of '${command} get resource resource/<resource_name>'`,
    );
  if (slashed > 0)
    return {
      form: 'tuples',
      tuples: words.map((w) => {
        const parts = w.split('/');
        if (parts.length !== 2)
          throw new ResourceArgumentsError('arguments in resource/name form may not have more than one slash');
        const [word, name] = parts as [string, string];
        if (word === '' || name === '' || splitTypes(word).length !== 1)
          throw new ResourceArgumentsError('arguments in resource/name form must have a single resource and name');
        return { word, name };
      }),
    };
  const [first, ...names] = words;
  if (first === undefined) return { form: 'types', words: [] };
  if (names.length > 0) return { form: 'names', word: splitTypes(first)[0]!, names };
  return { form: 'types', words: splitTypes(first) };
}

/** Several types before names become one TYPE/NAME word per type and name, types outermost. */
function normalized(args: readonly string[]): string[] {
  const [first, ...names] = args;
  if (first === undefined || names.length === 0) return [...args];
  const types = splitTypes(first);
  if (types.length < 2) return [...args];
  return types.flatMap((type) => names.map((name) => `${type}/${name}`));
}

/**
 * cli-runtime's refusal of a label selector beside the words, before any type is looked up: names and resource/name
 * words already say which objects. The message is kubectl's; undefined when the words and a selector go together.
 */
export function selectorConflict(args: ResourceArguments): string | undefined {
  if (args.form === 'names') return 'name cannot be provided when a selector is specified';
  if (args.form === 'tuples') return 'selectors and the all flag cannot be used when passing resource/name arguments';
  return undefined;
}
