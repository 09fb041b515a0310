// The fish completion script: lookups as `switch` statements and one function, called by
// `complete`, that walks the tokens before the cursor and prints the candidates.
import { argCases } from './bash.js';
import { header } from './render.js';
import type { CommandEntry } from './table.js';

const WORD = /^[A-Za-z0-9_.:/|@ -]*$/;

function switchLines(cases: [patterns: string[], value: string, prefix?: boolean][]): string {
  return cases
    .map(([patterns, value, prefix]) => {
      for (const text of [...patterns, value])
        if (!WORD.test(text)) throw new Error(`completion: unexpected characters in ${JSON.stringify(text)}`);
      return `        case ${patterns.map((pattern) => `'${pattern}${prefix ? '*' : ''}'`).join(' ')}\n            echo '${value}'`;
    })
    .join('\n');
}

export function fishScript(table: CommandEntry[], version: string): string {
  const values = table.flatMap((entry) => entry.values.map(([flag, kind]): [string[], string] => [[`${entry.path}|${flag}`], kind]));
  return `${header('fish', version, 'kct completion fish > ~/.config/fish/completions/kct.fish')}

function __kct_subcommands
    switch "$argv[1]"
${switchLines(table.filter((e) => e.subcommands.length > 0).map((e) => [[e.path], e.subcommands.join(' ')]))}
    end
end

function __kct_flags
    switch "$argv[1]"
${switchLines(table.map((e) => [[e.path], e.flags.join(' ')]))}
    end
end

function __kct_value
    switch "$argv[1]|$argv[2]"
${switchLines(values)}
    end
end

function __kct_arg
    switch "$argv[1]|$argv[2]"
${switchLines(table.flatMap((e) => argCases(e)))}
    end
end

# What the token at the cursor is, in globals: __kct_kind (flags, subcommands, choices ...,
# models, files, text or nothing), __kct_cmdpath, __kct_flag (set for --flag=value), __kct_bin
# and __kct_globals (--profile, --base-url typed so far).
function __kct_what
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -g __kct_bin $tokens[1]
    set -g __kct_cmdpath ''
    set -g __kct_flag ''
    set -g __kct_kind ''
    set -g __kct_globals
    set -l npos 0
    set -l n (count $tokens)
    set -l i 2
    while test $i -le $n
        set -l word $tokens[$i]
        switch $word
            case '-*=*'
            case '-*'
                set -l kind (__kct_value "$__kct_cmdpath" $word)
                if test -n "$kind"; and test $i -lt $n
                    set i (math $i + 1)
                    if contains -- $word --profile -p --base-url
                        set -a __kct_globals $word $tokens[$i]
                    end
                end
            case '*'
                if test $npos -eq 0; and contains -- $word (string split ' ' -- (__kct_subcommands "$__kct_cmdpath"))
                    set __kct_cmdpath (string trim -- "$__kct_cmdpath $word")
                else
                    set npos (math $npos + 1)
                end
        end
        set i (math $i + 1)
    end
    if string match -q -- '--*=*' "$cur"
        set -l flag (string split -m 1 '=' -- $cur)[1]
        set -l kind (__kct_value "$__kct_cmdpath" $flag)
        if test -n "$kind"
            set __kct_flag $flag
            set __kct_kind $kind
            return
        end
    end
    if test $n -gt 1; and string match -q -- '-*' "$tokens[$n]"
        set -l kind (__kct_value "$__kct_cmdpath" $tokens[$n])
        if test -n "$kind"
            set __kct_kind $kind
            return
        end
    end
    if string match -q -- '-*' "$cur"
        set __kct_kind flags
        return
    end
    set -l subcommands (__kct_subcommands "$__kct_cmdpath")
    if test -n "$subcommands"; and test $npos -eq 0
        set __kct_kind subcommands
        return
    end
    set __kct_kind (__kct_arg "$__kct_cmdpath" $npos)
end

# Files are left to fish's own file completion: the complete line below does not apply there.
function __kct_wants_files
    __kct_what
    test "$__kct_kind" = files
end

function __kct_complete
    __kct_what
    set -l values
    switch "$__kct_kind"
        case flags
            string split ' ' -- (__kct_flags "$__kct_cmdpath")
            return
        case subcommands
            string split ' ' -- (__kct_subcommands "$__kct_cmdpath")
            return
        case 'choices *'
            set values (string split ' ' -- (string replace 'choices ' '' -- $__kct_kind))
        case models
            set values ($__kct_bin __complete model-ids $__kct_globals 2>/dev/null)
    end
    if test -n "$__kct_flag"
        for value in $values
            echo "$__kct_flag=$value"
        end
    else if set -q values[1]
        printf '%s\\n' $values
    end
end

complete -c kct -e
complete -c kct -n 'not __kct_wants_files' -f -a '(__kct_complete)'
`;
}
