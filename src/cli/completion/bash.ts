// The bash completion script: lookup functions generated from the table, and one function that
// walks the words before the cursor to find the command, then offers what may come next.

import { caseLines, header } from './render.js';
import type { CommandEntry } from './table.js';

export function bashScript(table: CommandEntry[], version: string): string {
  return `${header('bash', version, 'source <(kct completion bash)   # or save it in ~/.local/share/bash-completion/completions/kct')}
${lookups(table)}
# Files are left to bash's own completion, as for a command with no completion of its own
# (complete -o bashdefault -o default): it quotes names with spaces, quotes, & or accents,
# appends / to folders, and expands ~, $VAR and glob patterns as it does everywhere.
_kct_offer() {
  local kind="$1" cur="$2"
  case "$kind" in
    choices\\ *) COMPREPLY=($(compgen -W "\${kind#choices }" -- "$cur")) ;;
    files) compopt -o bashdefault -o default 2>/dev/null; COMPREPLY=() ;;
    models) COMPREPLY=($(compgen -W "$("\${_kct_bin}" __complete model-ids "\${_kct_globals[@]}" 2>/dev/null | cut -f1)" -- "$cur")) ;;
    *) COMPREPLY=() ;;
  esac
}

_kct() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" word kind value cmdpath="" npos=0 i=1 glued=0 last=""
  local _kct_bin="\${COMP_WORDS[0]}"
  local -a _kct_globals=()
  # no file completion unless _kct_offer asks for it (bash 3, without compopt, always falls back)
  compopt +o bashdefault +o default 2>/dev/null
  while [ "$i" -lt "$COMP_CWORD" ]; do
    word="\${COMP_WORDS[i]}"
    # bash splits an unquoted a=b or a:b into "a", "=", "b": the part after continues the argument
    # ($last: the flag whose value, or the position of the argument, read last)
    if [ "$word" = "=" ] || [ "$word" = ":" ]; then glued=1; i=$((i + 1)); continue; fi
    if [ "$glued" -eq 1 ]; then glued=0; i=$((i + 1)); continue; fi
    case "$word" in
      -*=*) ;;
      -*)
        kind="$(_kct_value "$cmdpath" "$word")"
        if [ -n "$kind" ] && [ $((i + 1)) -lt "$COMP_CWORD" ]; then
          i=$((i + 1))
          [ "\${COMP_WORDS[i]}" = "=" ] && [ $((i + 1)) -lt "$COMP_CWORD" ] && i=$((i + 1))
          # the value whole, as _get_comp_words_by_ref -n : joins it: http://h:1/v1 is the words http : //h : 1/v1
          value="\${COMP_WORDS[i]}"
          while [ $((i + 2)) -lt "$COMP_CWORD" ] && [ "\${COMP_WORDS[i+1]}" = ":" ]; do
            value="$value:\${COMP_WORDS[i+2]}"
            i=$((i + 2))
          done
          case "$word" in --profile|-p|--base-url) _kct_globals+=("$word" "$value") ;; esac
          last="$word"
        fi ;;
      *)
        if [ "$npos" -eq 0 ] && [[ " $(_kct_subcommands "$cmdpath") " == *" $word "* ]]; then
          cmdpath="\${cmdpath:+$cmdpath }$word"
          last=""
        else
          last="$npos"
          npos=$((npos + 1))
        fi ;;
    esac
    i=$((i + 1))
  done
  [ "$COMP_CWORD" -gt 1 ] && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  # --flag=value: bash splits it into "--flag", "=", "value"
  if [ "$prev" = "=" ] && [ "$COMP_CWORD" -gt 2 ]; then prev="\${COMP_WORDS[COMP_CWORD-2]}"; fi
  if [ "$cur" = "=" ]; then cur=""; fi
  if [[ "$prev" == -* ]]; then
    kind="$(_kct_value "$cmdpath" "$prev")"
    if [ -n "$kind" ]; then _kct_offer "$kind" "$cur"; return 0; fi
  fi
  # the word at the cursor continues the argument read last (a=b, a:b)
  if [ "$glued" -eq 1 ] || [ "$cur" = ":" ] || [ "\${COMP_WORDS[COMP_CWORD]}" = "=" ]; then
    case "$last" in
      -*) _kct_offer "$(_kct_value "$cmdpath" "$last")" "$cur" ;;
      ?*) _kct_offer "$(_kct_arg "$cmdpath" "$last")" "$cur" ;;
    esac
    return 0
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(_kct_flags "$cmdpath")" -- "$cur"))
    return 0
  fi
  local subcommands
  subcommands="$(_kct_subcommands "$cmdpath")"
  if [ -n "$subcommands" ] && [ "$npos" -eq 0 ]; then
    COMPREPLY=($(compgen -W "$subcommands" -- "$cur"))
    return 0
  fi
  _kct_offer "$(_kct_arg "$cmdpath" "$npos")" "$cur"
}

complete -o bashdefault -o default -F _kct kct
`;
}

/** The lookup functions, in the `case` syntax bash and zsh share. */
export function lookups(table: CommandEntry[]): string {
  return `_kct_subcommands() {
  case "$1" in
${caseLines(table.filter((e) => e.subcommands.length > 0).map((e) => [[e.path], e.subcommands.join(' ')]))}
  esac
}

_kct_flags() {
  case "$1" in
${caseLines(table.map((e) => [[e.path], e.flags.join(' ')]))}
  esac
}

# the value a flag takes: choices ..., files, models or text (nothing printed: it takes none)
_kct_value() {
  case "$1|$2" in
${caseLines(table.flatMap((e) => groupByKind(e.values).map(([kind, flags]): [string[], string] => [flags.map((flag) => `${e.path}|${flag}`), kind])))}
  esac
}

# what the n-th argument (from 0) may be
_kct_arg() {
  case "$1|$2" in
${caseLines(table.flatMap((e) => argCases(e)))}
  esac
}`;
}

function groupByKind(values: [string, string][]): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const [flag, kind] of values) groups.set(kind, [...(groups.get(kind) ?? []), flag]);
  return [...groups];
}

/** One case per argument position; a variadic last argument answers for every later position too. */
export function argCases(entry: CommandEntry): [string[], string, boolean?][] {
  const cases: [string[], string, boolean?][] = entry.args.map((kind, index) => [[`${entry.path}|${index}`], kind]);
  if (entry.variadic && entry.args.length > 0) cases.push([[`${entry.path}|`], entry.args.at(-1)!, true]);
  return cases;
}
