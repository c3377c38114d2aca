%% The Erlang program of tests/suites/41-runtimes: a hot chain outer -> middle
%% -> leaf run for MILLISECONDS; prints the OS pid first (the perf map and the
%% jitdump are named after it).
%%   erl -noshell +JPperf MODE -pa DIR -run hot main MILLISECONDS -s init stop
-module(hot).
-export([main/1]).

main([Ms]) ->
    io:format("~s~n", [os:getpid()]),
    End = erlang:monotonic_time(millisecond) + list_to_integer(Ms),
    loop(End, 1).

loop(End, Acc) ->
    case erlang:monotonic_time(millisecond) >= End of
        true -> io:format("~p~n", [Acc band 16#ffff]);
        false -> loop(End, outer(50, Acc))
    end.

outer(0, Acc) -> Acc;
outer(N, Acc) -> outer(N - 1, middle(Acc)).

middle(X) -> leaf(X, 200) + 1.

leaf(X, 0) -> X;
leaf(X, K) -> leaf((X * 1103 + 12345) band 16#fffff, K - 1).
