// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title LocalToken
/// @notice The ERC-20 token in the genesis of evmtest's chain: "Local USD"
/// (LUSD), 6 decimals. It is never deployed: its runtime code and its
/// storage (totalSupply in slot 0, balanceOf in slot 1) are written into the
/// genesis alloc, so its balances exist from block 0. Name, symbol and
/// decimals are constants in the code.
contract LocalToken {
    /// @notice The ERC-20 Transfer event.
    event Transfer(address indexed from, address indexed to, uint256 value);
    /// @notice The ERC-20 Approval event.
    event Approval(address indexed owner, address indexed spender, uint256 value);

    string public constant name = "Local USD";
    string public constant symbol = "LUSD";
    uint8 public constant decimals = 6;

    /// @notice Storage slot 0.
    uint256 public totalSupply;
    /// @notice Storage slot 1: balanceOf[a] is at keccak256(a . 1).
    mapping(address => uint256) public balanceOf;
    /// @notice Storage slot 2.
    mapping(address => mapping(address => uint256)) public allowance;

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "LUSD: insufficient allowance");
        if (allowed != type(uint256).max) {
            allowance[from][msg.sender] = allowed - value;
        }
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) private {
        require(to != address(0), "LUSD: transfer to the zero address");
        uint256 have = balanceOf[from];
        require(have >= value, "LUSD: insufficient balance");
        balanceOf[from] = have - value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
